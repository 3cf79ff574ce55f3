(declare-const a String) (declare-const b String) (assert (str.in_re (str.replace_all "" a "a") re.allchar)) (check-sat)
