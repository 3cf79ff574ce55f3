(assert (str.in_re "" re.none)) (check-sat)
