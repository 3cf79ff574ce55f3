(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (declare-const c (_ FloatingPoint 11 53)) (declare-const d (_ FloatingPoint 11 53)) (declare-const e (_ FloatingPoint 11 53)) (assert (= a a)) (check-sat)
(get-model)
