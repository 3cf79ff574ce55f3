(declare-const a Int) (declare-const b Int) (assert (= 0 (div a b))) (check-sat)
