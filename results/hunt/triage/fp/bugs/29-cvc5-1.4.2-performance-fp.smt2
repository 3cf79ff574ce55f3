(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.lt (fp.fma RNA a a a) a)) (check-sat)
(get-model)
