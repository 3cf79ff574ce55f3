(declare-const a String) (declare-const b String) (declare-const c String) (declare-const d String) (declare-const e String) (assert (str.suffixof "" "")) (check-sat)
