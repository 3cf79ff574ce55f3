(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (distinct (fp #b0 #b00000000000 #b0000000000000000000000000000000000000000000000000000) (fp.div RNE a b))) (check-sat)
(get-model)
