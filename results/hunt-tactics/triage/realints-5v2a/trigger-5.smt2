(declare-const a Int) (assert (< 0.0 a)) (check-sat)
