(declare-const a Int) (declare-const b Int) (assert (= a (div a 0))) (check-sat)
