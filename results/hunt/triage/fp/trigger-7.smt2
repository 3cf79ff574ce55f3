(declare-const a (_ FloatingPoint 11 53)) (declare-const b (_ FloatingPoint 11 53)) (assert (= b (fp.sqrt RTP a))) (check-sat)
