(declare-const a Int) (declare-const b Int) (assert (= b (div 1 b))) (check-sat)
