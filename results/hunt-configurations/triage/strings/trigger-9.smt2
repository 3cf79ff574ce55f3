(assert (str.is_digit "")) (check-sat)
