(declare-const a Int) (declare-const b Real) (declare-const c Real) (declare-const d Real) (declare-const e Real) (assert (< a (sin c))) (check-sat)
