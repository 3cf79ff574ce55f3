(declare-const a String) (declare-const b String) (assert (= "" (str.substr (str.replace_all "" a "a") 0 1))) (check-sat)
