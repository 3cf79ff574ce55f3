(assert (str.prefixof "" "")) (check-sat)
