(declare-const a String) (declare-const b String) (assert (not (str.<= b a))) (check-sat)
