(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.geq b (fp.fma RTZ a b a))) (check-sat)
