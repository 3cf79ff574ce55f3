(assert (str.contains "" "")) (check-sat)
(get-model)
