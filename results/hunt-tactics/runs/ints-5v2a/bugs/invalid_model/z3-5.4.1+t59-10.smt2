(declare-const a Int) (declare-const b Int) (declare-const c Int) (declare-const d Int) (declare-const e Int) (assert (= 1 b)) (check-sat-using (then euf-completion smt))
(get-model)
