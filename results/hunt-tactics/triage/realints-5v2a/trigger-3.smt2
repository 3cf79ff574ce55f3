(assert (> 0.0 0.0)) (check-sat)
