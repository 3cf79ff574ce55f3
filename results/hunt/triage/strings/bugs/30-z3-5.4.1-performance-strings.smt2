(declare-const a String) (declare-const b String) (assert (distinct (str.<= a b) (str.contains b a))) (check-sat)
(get-model)
