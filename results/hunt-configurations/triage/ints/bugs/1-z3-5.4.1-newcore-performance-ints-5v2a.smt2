(declare-const a Int) (assert (= 1 (mod a a))) (check-sat)
