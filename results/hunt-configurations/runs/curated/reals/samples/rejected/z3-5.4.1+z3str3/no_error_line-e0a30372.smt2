(declare-const a Real) (declare-const b Real) (declare-const c Real) (declare-const d Real) (declare-const e Real) (assert (= a b)) (check-sat)
(get-info :reason-unknown)
