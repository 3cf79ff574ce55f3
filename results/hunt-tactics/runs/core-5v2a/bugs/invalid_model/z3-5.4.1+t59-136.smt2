(declare-const a Bool) (declare-const b Bool) (declare-const c Bool) (declare-const d Bool) (declare-const e Bool) (assert (or b b)) (check-sat-using (then euf-completion smt))
(get-model)
