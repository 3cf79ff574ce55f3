(declare-const a String) (declare-const b String) (assert (str.is_digit (str.replace_all "" a "a"))) (check-sat)
