(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (bvult #x0000000000000000 (bvurem #x0000000000000000 (bvurem a #x1111111111111111)))) (check-sat)
