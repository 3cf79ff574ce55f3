(declare-const a String) (declare-const b String) (assert (= "" (str.at (str.replace_all "" a "a") 0))) (check-sat)
