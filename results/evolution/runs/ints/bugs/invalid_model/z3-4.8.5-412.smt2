(declare-const a Int) (declare-const b Int) (assert (= a (mod a 0))) (check-sat)
