(declare-const a Int) (declare-const b Int) (assert (= 1 (mod (* b a) b))) (check-sat)
(get-model)
