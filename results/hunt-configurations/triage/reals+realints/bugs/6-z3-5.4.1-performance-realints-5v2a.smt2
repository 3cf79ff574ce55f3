(assert (< 0.0 (sin 1.0))) (check-sat)
