(declare-const a Int) (declare-const b Int) (assert (= a (mod a a))) (check-sat)
