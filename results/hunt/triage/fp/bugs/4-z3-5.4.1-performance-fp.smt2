(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (distinct (fp #b1 #b11111111111 #b1111111111111111111111111111111111111111111111111111) (fp.mul RNA a b))) (check-sat)
(get-model)
