(declare-const a (Array (_ BitVec 64) (_ BitVec 64))) (assert (= a a)) (check-sat)
