(assert (= 0.0 (sin 0.0))) (check-sat)
(get-model)
