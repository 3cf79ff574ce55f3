(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (= (_ +zero 11 53) (fp.div RTP a b))) (check-sat)
