(assert (not (distinct "" ""))) (check-sat)
(get-model)
