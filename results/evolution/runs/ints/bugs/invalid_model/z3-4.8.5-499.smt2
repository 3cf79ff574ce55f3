(declare-const a Int) (declare-const b Int) (assert (= b (mod 1 b))) (check-sat)
