(declare-const a Int) (declare-const b Int) (assert (= 0 (div b 0))) (check-sat)
