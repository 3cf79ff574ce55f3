(declare-const a Real) (declare-const b Real) (assert (< a (cos 1.0))) (check-sat)
