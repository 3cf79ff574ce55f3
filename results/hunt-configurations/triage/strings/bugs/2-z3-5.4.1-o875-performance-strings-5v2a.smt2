(declare-const a String) (assert (distinct "" a)) (check-sat)
