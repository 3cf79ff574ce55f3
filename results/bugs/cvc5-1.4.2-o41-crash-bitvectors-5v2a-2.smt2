(declare-const a (_ BitVec 64)) (assert (bvult #x0000000000000000 a)) (check-sat)
