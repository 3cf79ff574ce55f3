(declare-const a Int) (declare-const b Real) (declare-const c Real) (declare-const d Real) (declare-const e Real) (assert (= c d)) (check-sat)
(get-info :reason-unknown)
