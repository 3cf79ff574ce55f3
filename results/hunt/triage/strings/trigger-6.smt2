(declare-const a String) (declare-const b String) (assert (or (str.<= a b) (str.contains b a))) (check-sat)
