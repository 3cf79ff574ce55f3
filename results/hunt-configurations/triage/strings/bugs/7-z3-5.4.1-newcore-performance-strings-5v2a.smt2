(assert (distinct "" "a")) (check-sat)
(get-model)
