(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (= 1 0)) (check-sat)
(get-model)
