(declare-const a Int) (declare-const b Int) (assert (= 0 (div 0 0))) (check-sat)
