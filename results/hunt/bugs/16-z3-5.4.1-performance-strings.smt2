(declare-const a String) (declare-const b String) (assert (not (distinct "" (str.replace_all "" a "a")))) (check-sat)
(get-model)
