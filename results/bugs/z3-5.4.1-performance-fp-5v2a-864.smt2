(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (= (_ +zero 11 53) (fp.mul RNE a b))) (check-sat)
