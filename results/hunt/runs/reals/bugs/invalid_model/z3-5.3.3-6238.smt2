(declare-const a Real) (declare-const b Real) (assert (not (<= a (tan a)))) (check-sat)
(get-model)
