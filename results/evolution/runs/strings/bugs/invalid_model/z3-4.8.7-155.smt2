(declare-const a String) (declare-const b String) (assert (not (str.<= a b))) (check-sat)
