(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (not (bvult (bvurem #x1111111111111111 a) a))) (check-sat)
