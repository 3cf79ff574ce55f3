(declare-const a Int) (assert (< 0.0 (tan a))) (check-sat)
(get-model)
