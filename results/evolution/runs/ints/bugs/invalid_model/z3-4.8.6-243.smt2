(declare-const a Int) (declare-const b Int) (assert (= 0 (mod b b))) (check-sat)
