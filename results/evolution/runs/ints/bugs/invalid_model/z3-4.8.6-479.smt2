(declare-const a Int) (declare-const b Int) (assert (= b (div 0 b))) (check-sat)
