(declare-const b (_ BitVec 64))
(assert (= #xa222222222222222 (bvor #x0000000000000000 (bvadd #x1111111111111111 (bvor #x1111111111111111 b)))))
(assert (= b #x0000000000000000))
(check-sat)
