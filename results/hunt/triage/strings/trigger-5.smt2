(declare-const a String) (declare-const b String) (assert (not (str.contains (str.replace a "a" a) a))) (check-sat)
