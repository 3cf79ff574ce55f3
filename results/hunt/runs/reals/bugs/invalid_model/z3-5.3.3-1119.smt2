(declare-const a Real) (declare-const b Real) (assert (< b (tan b))) (check-sat)
(get-model)
