(assert (str.suffixof "" "")) (check-sat)
