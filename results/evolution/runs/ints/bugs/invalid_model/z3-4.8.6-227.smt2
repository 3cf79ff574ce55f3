(declare-const a Int) (declare-const b Int) (assert (= 0 (div b b))) (check-sat)
