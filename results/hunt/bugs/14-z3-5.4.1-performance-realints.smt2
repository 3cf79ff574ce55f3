(declare-const a Int) (declare-const b Real) (assert (not (is_int (sin 1.0)))) (check-sat)
(get-model)
