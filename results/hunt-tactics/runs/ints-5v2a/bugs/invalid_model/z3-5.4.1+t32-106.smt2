(declare-const a Int) (declare-const b Int) (declare-const c Int) (declare-const d Int) (declare-const e Int) (assert (> 1 1)) (check-sat-using (then pb2bv smt))
(get-model)
