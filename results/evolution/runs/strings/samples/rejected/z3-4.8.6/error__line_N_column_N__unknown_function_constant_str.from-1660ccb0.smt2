(declare-const a String) (declare-const b String) (assert (= "" (str.from_int 0))) (check-sat)
