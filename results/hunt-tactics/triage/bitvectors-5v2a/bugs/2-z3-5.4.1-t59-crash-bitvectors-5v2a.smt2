(assert (bvult #x0000000000000000 #x1111111111111111)) (check-sat-using (then euf-completion smt))
