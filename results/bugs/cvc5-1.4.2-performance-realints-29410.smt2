(declare-const a Int) (declare-const b Real) (assert (= 1.0 (+ a (* a a)))) (check-sat)
(get-info :reason-unknown)
