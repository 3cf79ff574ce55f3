(declare-const a Int) (declare-const b Int) (assert (= a (mod 1 a))) (check-sat)
