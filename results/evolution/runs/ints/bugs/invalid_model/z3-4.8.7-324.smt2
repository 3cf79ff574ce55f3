(declare-const a Int) (declare-const b Int) (assert (= 1 (mod a 0))) (check-sat)
