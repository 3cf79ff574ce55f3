(declare-const a Real) (assert (= 1.0 a)) (check-sat-using (then euf-completion smt))
