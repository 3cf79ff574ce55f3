(declare-const a String) (declare-const b String) (assert (not (str.prefixof a (str.replace a b "")))) (check-sat)
