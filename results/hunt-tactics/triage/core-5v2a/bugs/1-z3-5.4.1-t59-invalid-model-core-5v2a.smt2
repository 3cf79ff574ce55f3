(declare-const a Bool) (assert (or a a)) (check-sat-using (then euf-completion smt))
