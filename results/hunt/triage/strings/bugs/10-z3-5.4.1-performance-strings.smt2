(declare-const a String) (declare-const b String) (assert (not (str.prefixof "a" (str.replace_all "" a "a")))) (check-sat)
(get-model)
