(declare-const a String) (declare-const b String) (assert (distinct a b)) (check-sat)
(get-model)
