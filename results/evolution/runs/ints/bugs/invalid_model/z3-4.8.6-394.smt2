(declare-const a Int) (declare-const b Int) (assert (= a (div 1 a))) (check-sat)
