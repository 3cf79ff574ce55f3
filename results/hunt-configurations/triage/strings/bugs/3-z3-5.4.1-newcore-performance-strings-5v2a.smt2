(assert (str.prefixof "" "")) (check-sat)
(get-model)
