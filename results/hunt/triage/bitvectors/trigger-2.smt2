(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (bvult #x0000000000000000 (bvmul a (bvudiv #x0000000000000000 b)))) (check-sat)
