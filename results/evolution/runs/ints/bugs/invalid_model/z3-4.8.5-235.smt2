(declare-const a Int) (declare-const b Int) (assert (= 0 (mod 1 b))) (check-sat)
