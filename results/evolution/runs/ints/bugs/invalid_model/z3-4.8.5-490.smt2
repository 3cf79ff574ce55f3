(declare-const a Int) (declare-const b Int) (assert (= b (div b a))) (check-sat)
