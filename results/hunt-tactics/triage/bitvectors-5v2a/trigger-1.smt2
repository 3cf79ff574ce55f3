(declare-const a (_ BitVec 64)) (assert (= #x1111111111111111 a)) (check-sat)
