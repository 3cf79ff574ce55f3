(assert (= (_ +zero 11 53) (fp.sub RNE (_ +zero 11 53) (_ +zero 11 53)))) (check-sat)
(get-info :reason-unknown)
