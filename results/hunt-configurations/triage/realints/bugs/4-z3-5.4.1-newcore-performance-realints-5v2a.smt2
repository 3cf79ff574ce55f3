(assert (= 0.0 (tan 0.0))) (check-sat)
(get-model)
