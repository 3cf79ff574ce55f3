(assert (or true true)) (check-sat)
