(declare-const a Int) (declare-const b Real) (assert (= 0.0 (/ (cos 1.0) 0.0))) (check-sat)
(get-model)
