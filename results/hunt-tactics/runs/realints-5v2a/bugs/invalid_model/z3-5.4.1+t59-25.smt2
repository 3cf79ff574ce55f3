(declare-const a Int) (declare-const b Real) (declare-const c Real) (declare-const d Real) (declare-const e Real) (assert (= d 1.0)) (check-sat-using (then euf-completion smt))
(get-model)
