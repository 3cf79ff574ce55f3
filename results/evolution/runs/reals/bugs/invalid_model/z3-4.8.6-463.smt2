(declare-const a Real) (declare-const b Real) (assert (= b (/ a b))) (check-sat)
