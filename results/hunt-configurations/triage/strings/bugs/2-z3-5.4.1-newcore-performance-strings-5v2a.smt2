(assert (str.<= "" "")) (check-sat)
(get-model)
