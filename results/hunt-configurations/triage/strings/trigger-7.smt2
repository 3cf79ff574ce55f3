(assert (distinct "" "a")) (check-sat)
