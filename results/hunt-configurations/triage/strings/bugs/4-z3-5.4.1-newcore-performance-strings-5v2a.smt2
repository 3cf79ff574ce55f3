(assert (str.suffixof "" "")) (check-sat)
(get-model)
