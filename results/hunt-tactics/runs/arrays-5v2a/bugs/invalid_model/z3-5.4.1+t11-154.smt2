(declare-const a (Array (_ BitVec 64) (_ BitVec 64))) (declare-const b (_ BitVec 64)) (declare-const c (_ BitVec 64)) (declare-const d (_ BitVec 64)) (declare-const e (_ BitVec 64)) (assert (= a (store a #x0000000000000000 (bvneg d)))) (check-sat-using (then bvarray2uf smt))
(get-model)
