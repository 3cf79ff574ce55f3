(assert (= (/ 856193951223.0 549755813888.0) (tan 1.0)))
(check-sat)
(get-model)
