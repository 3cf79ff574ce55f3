(declare-const a Int) (declare-const b Int) (assert (= b (mod 0 b))) (check-sat)
