(assert (or true true)) (check-sat-using (then euf-completion smt))
