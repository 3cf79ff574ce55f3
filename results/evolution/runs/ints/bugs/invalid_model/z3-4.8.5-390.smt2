(declare-const a Int) (declare-const b Int) (assert (= a (div 0 a))) (check-sat)
