(declare-const a Int) (declare-const b Int) (assert (= 1 (mod 1 0))) (check-sat)
