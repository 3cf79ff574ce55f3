(declare-const a Int) (declare-const b Int) (assert (= 1 (mod (* b b) b))) (check-sat)
