(declare-const a Int) (declare-const b Int) (assert (= 1 (div b 0))) (check-sat)
