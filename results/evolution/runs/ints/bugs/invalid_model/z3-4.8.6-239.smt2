(declare-const a Int) (declare-const b Int) (assert (= 0 (mod a b))) (check-sat)
