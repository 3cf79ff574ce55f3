(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (bvult #x0000000000000000 (bvudiv b (bvudiv #x1111111111111111 b)))) (check-sat)
