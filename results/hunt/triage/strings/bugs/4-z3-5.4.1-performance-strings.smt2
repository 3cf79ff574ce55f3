(declare-const a String) (declare-const b String) (assert (not (str.suffixof a (str.replace a b "")))) (check-sat)
(get-model)
