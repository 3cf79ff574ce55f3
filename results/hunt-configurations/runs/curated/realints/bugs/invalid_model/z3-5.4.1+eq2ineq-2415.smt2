(declare-const a Int) (declare-const b Real) (declare-const c Real) (declare-const d Real) (declare-const e Real) (assert (= (tan 1.0) e)) (check-sat)
(get-model)
