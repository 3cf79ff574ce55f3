(declare-const a Int) (declare-const b Int) (assert (= 1 (mod (* a a) a))) (check-sat)
