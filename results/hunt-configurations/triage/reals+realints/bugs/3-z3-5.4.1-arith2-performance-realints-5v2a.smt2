(declare-const a Int) (assert (< (to_real a) (/ 1.0 (to_real a)))) (check-sat)
