(declare-const a Int) (declare-const b Int) (assert (= a (mod b a))) (check-sat)
