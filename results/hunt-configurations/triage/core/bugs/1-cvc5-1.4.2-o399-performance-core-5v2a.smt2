(assert true) (check-sat)
(get-model)
