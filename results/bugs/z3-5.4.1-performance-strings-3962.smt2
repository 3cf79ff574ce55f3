(declare-const a String) (declare-const b String) (assert (str.<= (str.replace a b "") a)) (check-sat)
