(declare-const a Int) (declare-const b Int) (assert (= a (div a b))) (check-sat)
