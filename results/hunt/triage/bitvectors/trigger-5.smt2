(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (bvult a (bvurem a b))) (check-sat)
