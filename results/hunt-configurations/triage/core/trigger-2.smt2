(assert (not true)) (check-sat)
