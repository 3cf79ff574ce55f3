(declare-const a (_ BitVec 64)) (declare-const b (_ BitVec 64)) (declare-const c (_ BitVec 64)) (declare-const d (_ BitVec 64)) (declare-const e (_ BitVec 64)) (assert (= #x1111111111111111 c)) (check-sat-using (then euf-completion smt))
(get-model)
