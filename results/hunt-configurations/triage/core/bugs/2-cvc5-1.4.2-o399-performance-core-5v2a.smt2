(assert (not true)) (check-sat)
(get-model)
