(declare-const a Int) (declare-const b Int) (assert (= 1 (div a 0))) (check-sat)
