(declare-const a Real) (declare-const b Real) (assert (not (= a (sin a)))) (check-sat)
