(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (declare-const c (_ BitVec 64)) (declare-const d (_ BitVec 64)) (declare-const e (_ BitVec 64)) (assert (bvult #x0000000000000000 #x0000000000000000)) (check-sat)
(get-model)
