(declare-fun p (Int) Bool) (assert (forall ((x Int)) (p 0))) (check-sat-using (then smtfd smt))
