(declare-const a Int) (declare-const b Int) (assert (= 1 (div a b))) (check-sat)
