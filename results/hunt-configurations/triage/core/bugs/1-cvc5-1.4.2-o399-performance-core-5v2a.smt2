(assert true) (check-sat)
