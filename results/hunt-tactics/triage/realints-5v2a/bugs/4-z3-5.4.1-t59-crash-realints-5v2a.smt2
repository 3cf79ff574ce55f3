(assert (= 0.0 0.0)) (check-sat-using (then euf-completion smt))
