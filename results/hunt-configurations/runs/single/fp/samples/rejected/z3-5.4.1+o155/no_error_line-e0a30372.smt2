(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (declare-const c (_ FloatingPoint 11 53)) (declare-const d (_ FloatingPoint 11 53)) (declare-const e (_ FloatingPoint 11 53)) (assert (= (fp #b0 #b00000000000 #b0000000000000000000000000000000000000000000000000000) e)) (check-sat)
(get-info :reason-unknown)
