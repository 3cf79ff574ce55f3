(declare-const a String) (declare-const b String) (assert (not (str.<= a "a"))) (check-sat)
