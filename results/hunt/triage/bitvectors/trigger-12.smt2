(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (= 1 (bv2nat a))) (check-sat)
