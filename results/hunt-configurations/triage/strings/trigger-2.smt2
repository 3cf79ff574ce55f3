(assert (str.<= "" "")) (check-sat)
