(declare-const a String) (assert (str.contains (str.replace a "a" a) a)) (check-sat)
(get-model)
