(set-logic QF_ABV)
(declare-const a (Array (_ BitVec 64) (_ BitVec 64))) (declare-const b (_ BitVec 64)) (assert (= a (store a #x1111111111111111 (bvor (bvadd #x1111111111111111 (bvor #x1111111111111111 b)) b)))) (check-sat)
(get-model)
