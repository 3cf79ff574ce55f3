(declare-const a Int) (declare-const b Int) (assert (= 0 (mod a 0))) (check-sat)
