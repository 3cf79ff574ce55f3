(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.leq a (fp.sqrt RNE a))) (check-sat)
