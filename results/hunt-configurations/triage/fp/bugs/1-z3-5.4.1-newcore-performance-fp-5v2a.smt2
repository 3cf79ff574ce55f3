(declare-const a (_ FloatingPoint 11 53)) (assert (= (_ +zero 11 53) (fp.fma RNE a a (_ +zero 11 53)))) (check-sat)
