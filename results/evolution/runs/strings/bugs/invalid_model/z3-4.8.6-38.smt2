(declare-const a String) (declare-const b String) (assert (str.<= "a" a)) (check-sat)
