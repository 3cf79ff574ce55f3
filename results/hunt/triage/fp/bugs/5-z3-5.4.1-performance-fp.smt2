(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.geq a (fp.mul RNA a b))) (check-sat)
(get-model)
