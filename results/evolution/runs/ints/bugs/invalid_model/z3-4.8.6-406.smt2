(declare-const a Int) (declare-const b Int) (assert (= a (mod 0 a))) (check-sat)
