(declare-const a Real) (declare-const b Real) (assert (not (<= 1.0 (cos a)))) (check-sat)
