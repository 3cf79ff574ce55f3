(declare-const a String) (declare-const b String) (assert (= "" (str.replace_all "" a "a"))) (check-sat)
