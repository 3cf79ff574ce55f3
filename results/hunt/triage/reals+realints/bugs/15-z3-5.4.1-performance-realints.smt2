(declare-const a Int) (declare-const b Real) (assert (= 0.0 (/ a (cos a)))) (check-sat)
(get-model)
