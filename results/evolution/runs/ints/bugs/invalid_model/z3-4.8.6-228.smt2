(declare-const a Int) (declare-const b Int) (assert (= 0 (mod 0 0))) (check-sat)
