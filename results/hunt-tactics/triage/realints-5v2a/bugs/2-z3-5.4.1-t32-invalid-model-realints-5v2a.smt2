(assert (< 0.0 0.0)) (check-sat-using (then pb2bv smt))
