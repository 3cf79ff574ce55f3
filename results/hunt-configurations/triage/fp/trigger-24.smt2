(assert (= (_ +zero 11 53) (_ +zero 11 53))) (check-sat)
