(assert (not (distinct "" ""))) (check-sat)
