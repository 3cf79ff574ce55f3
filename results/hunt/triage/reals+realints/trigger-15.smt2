(declare-const a Real) (declare-const b Real) (assert (< a (sin a))) (check-sat)
