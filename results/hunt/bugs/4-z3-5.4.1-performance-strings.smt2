(declare-const a String) (declare-const b String) (assert (and (str.<= a b) (str.contains b a))) (check-sat)
(get-model)
