(assert (= 0.0 (cos 0.0))) (check-sat)
