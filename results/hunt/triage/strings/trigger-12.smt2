(declare-const a String) (declare-const b String) (assert (str.prefixof "a" (str.replace_all "" a "a"))) (check-sat)
