(declare-const a (Array (_ BitVec 64) (_ BitVec 64))) (assert (= a (store a #x0000000000000000 #x1111111111111111))) (check-sat-using (then bvarray2uf smt))
(get-model)
