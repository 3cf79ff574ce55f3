(assert (bvult #x0000000000000000 #x0000000000000000)) (check-sat)
(get-model)
