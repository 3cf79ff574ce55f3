(declare-const a Int) (declare-const b Real) (assert (= 0.0 (tan (+ 1.0 a)))) (check-sat)
