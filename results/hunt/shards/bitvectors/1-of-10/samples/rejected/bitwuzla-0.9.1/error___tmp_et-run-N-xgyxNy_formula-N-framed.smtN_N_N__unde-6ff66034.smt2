(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (assert (= 1 (bv2nat #x0000000000000000))) (check-sat)
(get-model)
