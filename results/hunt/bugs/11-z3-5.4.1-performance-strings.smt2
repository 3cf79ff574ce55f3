(declare-const a String) (declare-const b String) (assert (not (str.suffixof "a" (str.replace_all "" a "a")))) (check-sat)
(get-model)
