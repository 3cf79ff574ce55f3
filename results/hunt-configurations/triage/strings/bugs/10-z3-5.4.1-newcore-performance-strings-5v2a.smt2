(assert (= "" (str.from_int 0))) (check-sat)
(get-model)
