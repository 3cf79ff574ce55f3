(declare-const a Int) (declare-const b Int) (assert (= b (div b 0))) (check-sat)
