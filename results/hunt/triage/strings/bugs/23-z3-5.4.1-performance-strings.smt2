(declare-const a String) (declare-const b String) (assert (not (str.<= a (str.replace a b "")))) (check-sat)
(get-model)
