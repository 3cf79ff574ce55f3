(declare-const a Int) (assert (= 1 a)) (check-sat-using (then euf-completion smt))
