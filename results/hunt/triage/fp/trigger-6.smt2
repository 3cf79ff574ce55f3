(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.geq (fp.sqrt RNE a) a)) (check-sat)
