(declare-const a String) (declare-const b String) (assert (str.<= b a)) (check-sat)
