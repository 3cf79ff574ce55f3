(declare-const a String) (declare-const b String) (assert (= "" (str.replace_all "" "" ""))) (check-sat)
