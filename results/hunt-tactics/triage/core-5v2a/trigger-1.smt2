(declare-const a Bool) (assert (or a a)) (check-sat)
