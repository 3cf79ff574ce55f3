(declare-const a Int) (declare-const b Real) (declare-const c Real) (declare-const d Real) (declare-const e Real) (assert (> 0.0 1.0)) (check-sat-using (then pb2bv smt))
(get-model)
