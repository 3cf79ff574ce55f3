(declare-const a String) (declare-const b String) (assert (= "" (str.replace_all "" a (str.from_int 0)))) (check-sat)
