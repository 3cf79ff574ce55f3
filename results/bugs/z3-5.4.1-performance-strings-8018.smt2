(declare-const a String) (declare-const b String) (assert (str.contains (str.replace a "a" a) a)) (check-sat)
