(declare-const a Int) (declare-const b Int) (assert (= 1 (div b a))) (check-sat)
