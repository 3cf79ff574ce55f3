(declare-const a String) (declare-const b String) (assert (str.is_digit "")) (check-sat)
