(assert (= "" "")) (check-sat)
