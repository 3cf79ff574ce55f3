(declare-const a Int) (declare-const b Int) (assert (= 1 (mod 0 b))) (check-sat)
