(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (distinct (fp.sqrt RNA a) a)) (check-sat)
