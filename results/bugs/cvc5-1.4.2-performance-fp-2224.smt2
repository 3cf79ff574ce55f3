(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.leq (fp.fma RTZ a b a) b)) (check-sat)
