(declare-const a Int) (declare-const b Int) (assert (= 0 (div a 0))) (check-sat)
