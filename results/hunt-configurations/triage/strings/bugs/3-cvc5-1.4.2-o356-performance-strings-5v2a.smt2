(assert (= "" "")) (check-sat)
(get-model)
