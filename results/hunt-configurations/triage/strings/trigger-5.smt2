(assert (str.contains "" "")) (check-sat)
