(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (bvult #x0000000000000000 (bvudiv #x1111111111111111 (bvurem #x1111111111111111 a)))) (check-sat)
