(declare-const a Int) (declare-const b Real) (assert (not (< a (cos a)))) (check-sat)
