(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (fp.lt (fp #b0 #b00000000000 #b0000000000000000000000000000000000000000000000000000) (fp.mul RNE a b))) (check-sat)
(get-model)
