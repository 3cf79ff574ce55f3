(declare-const a String) (declare-const b String) (assert (distinct "" (str.replace_all "" a "a"))) (check-sat)
