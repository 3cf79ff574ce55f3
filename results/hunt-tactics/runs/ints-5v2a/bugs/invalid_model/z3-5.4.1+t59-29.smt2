(declare-const a Int) (declare-const b Int) (declare-const c Int) (declare-const d Int) (declare-const e Int) (assert (= c 1)) (check-sat-using (then euf-completion smt))
(get-model)
