(set-logic QF_ABV)
(declare-const a (Array (_ BitVec 64) (_ BitVec 64))) (declare-const b (_ BitVec 64)) (assert (= a (store a (bvor #x0000000000000000 (bvadd #x1111111111111111 (bvor #x1111111111111111 b))) #x1111111111111111))) (check-sat)
(get-model)
