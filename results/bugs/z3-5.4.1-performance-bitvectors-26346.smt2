(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (bvult #x0000000000000000 (bvurem (bvurem a a) a))) (check-sat)
