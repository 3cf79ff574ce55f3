(declare-const a Bool) (declare-const b Bool) (declare-const c Bool) (declare-const d Bool) (declare-const e Bool) (assert e) (check-sat)
(get-info :reason-unknown)
