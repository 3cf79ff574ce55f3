(declare-const a String) (declare-const b String) (assert (str.in_re "" re.all)) (check-sat)
