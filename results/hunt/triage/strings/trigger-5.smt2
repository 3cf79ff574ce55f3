(declare-const a String) (declare-const b String) (assert (xor (str.<= a b) (str.contains b a))) (check-sat)
