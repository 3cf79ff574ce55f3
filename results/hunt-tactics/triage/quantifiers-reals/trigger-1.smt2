(declare-fun p (Real) Bool) (assert (forall ((x Real)) (p 0.0))) (check-sat)
