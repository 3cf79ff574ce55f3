(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (not (distinct a (bvurem b a)))) (check-sat)
(get-model)
