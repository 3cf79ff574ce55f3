(declare-const a Int) (declare-const b Real) (assert (= 1.0 (/ 1.0 (cos a)))) (check-sat)
