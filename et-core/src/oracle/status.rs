use std::fmt;
use std::str::FromStr;

/// A label in the CSV that is not a known status or verdict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{value}` (expected one of: {expected})")]
pub struct ParseLabelError {
    kind: &'static str,
    value: String,
    expected: String,
}

macro_rules! labelled_enum {
    ($(#[$meta:meta])* $name:ident, $kind:literal, { $($(#[$vmeta:meta])* $variant:ident => $label:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in the order reports list them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// How many values there are (`ALL.len()`, usable in array types).
            pub const COUNT: usize = [$($label),+].len();

            /// The label used in CSV files and on the command line.
            pub fn label(self) -> &'static str {
                match self { $($name::$variant => $label),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.label())
            }
        }

        impl FromStr for $name {
            type Err = ParseLabelError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($label => Ok($name::$variant),)+
                    _ => Err(ParseLabelError {
                        kind: $kind,
                        value: s.to_string(),
                        expected: [$($label),+].join(", "),
                    }),
                }
            }
        }

        /// Written as its label (a `runs.csv` cell).
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.label())
            }
        }

        /// Read from its label; anything else is an error naming the value.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

labelled_enum!(
    /// What one solver call came to, after classification (see [`super::classify`]).
    Status, "status", {
        /// The solver answered `sat`.
        Sat => "sat",
        /// The solver answered `unsat`.
        Unsat => "unsat",
        /// The solver answered `unknown` (with or without a reason).
        Unknown => "unknown",
        /// Killed by et's wall-clock or CPU-time limit (or the solver's own time limit).
        Timeout => "timeout",
        /// Ran out of memory: et's memory limit, or an allocation failure the solver
        /// reported.
        Memout => "memout",
        /// Signal, assertion failure, internal error, sanitizer report.
        Crash => "crash",
        /// The solver did not accept the formula (parse/type error, unsupported feature).
        Rejected => "rejected",
        /// The solver could not start: the program could not be executed, the dynamic
        /// loader failed, it exited 127, or the memory limit is too low to load it. A
        /// problem of the pool or the limits, never of the solver: never a bug trigger.
        SetupError => "setup_error",
        /// Killed by a SIGKILL that et did not send (an operator, the kernel's OOM
        /// killer acting outside et's memory limit), on the call and on each of its
        /// re-runs. Says nothing about the solver: never a verdict or a bug trigger.
        Killed => "killed",
        /// Stopped at the wall-clock limit having used less CPU than its budget (the
        /// CPU-time limit, or half the wall-clock limit without a smaller one), on the
        /// call and on its re-run: it waited instead of computing, which on a loaded
        /// machine means it got no CPU. The machine was too busy to judge it: never a
        /// verdict, a timing or a bug trigger.
        Starved => "starved",
    }
);

labelled_enum!(
    /// What a call says about the solver under test, judged against the reference.
    Verdict, "verdict", {
        /// sat/unsat contradicts the reference answer.
        Unsound => "unsound",
        /// The model the solver printed does not satisfy the formula: et's evaluation
        /// falsifies it, or (where et's evaluation cannot decide it) the solver's own
        /// model check rejected it.
        InvalidModel => "invalid_model",
        /// The solver crashed.
        Crash => "crash",
        /// Timed out where the reference decided the formula.
        Timeout => "timeout",
        /// Answered unknown where the reference decided the formula.
        Unknown => "unknown",
        /// The solver's own model check rejected a model that et's evaluation finds
        /// satisfies the formula: a bug of the solver's checker, not of its answer.
        ValidatorFalseAlarm => "validator_false_alarm",
        /// A script's answer at a check-sat contradicts the same release's answer on
        /// that check-sat's assertions alone, in a fresh process. The evidence says
        /// which side is wrong where et can tell: `model` or `witness` prove the
        /// assertions satisfiable (the `unsat` is wrong); `reference` only that the two
        /// answers disagree.
        Incremental => "incremental",
    }
);

labelled_enum!(
    /// What established a verdict (the `evidence` column of `runs.csv`).
    Evidence, "evidence", {
        /// The reference solver's sat/unsat contradicts the answer.
        Reference => "reference",
        /// et found a satisfying assignment, so `unsat` is wrong.
        Witness => "witness",
        /// et evaluated the solver's model: it falsifies the formula (an invalid model),
        /// or it satisfies the formula the solver's own check rejected it on (a
        /// validator false alarm).
        Model => "model",
        /// The solver's own model check failed.
        SelfCheck => "self-check",
        /// The reference did not decide the formula, but another solver of the pool did
        /// with an answer nothing contradicts (a performance verdict only).
        Pool => "pool",
    }
);

impl Evidence {
    /// Whether this evidence can establish a correctness verdict (`unsound`,
    /// `invalid_model`): every kind but the pool's decisions, which only show that a
    /// formula can be decided.
    pub fn judges_correctness(self) -> bool {
        self != Evidence::Pool
    }

    /// What established a correctness verdict in a `runs.csv` written before the
    /// `evidence` column existed: a reference for `unsound`, the solver's own check for
    /// `invalid_model`; a crash needs no evidence beyond the failed process. (No such
    /// file has a `validator_false_alarm`: the verdict came after the column.)
    pub fn implied_by(verdict: Verdict) -> Option<Evidence> {
        match verdict {
            Verdict::Unsound => Some(Evidence::Reference),
            Verdict::InvalidModel => Some(Evidence::SelfCheck),
            Verdict::ValidatorFalseAlarm => Some(Evidence::Model),
            _ => None,
        }
    }
}

impl Status {
    /// sat or unsat: the formula was decided.
    pub fn is_decided(self) -> bool {
        matches!(self, Status::Sat | Status::Unsat)
    }

    /// Whether the call tells anything about the solver: false for a call that never
    /// started (`setup_error`), that something outside et killed (`killed`) or that
    /// got no CPU to compute with (`starved`). Such a call gets no verdict, makes no
    /// formula "undecided" and never reaches triage.
    pub fn tells_about_solver(self) -> bool {
        !matches!(self, Status::SetupError | Status::Killed | Status::Starved)
    }
}

impl Verdict {
    /// Correctness findings: a wrong answer or model, a crash, a false alarm of the
    /// solver's own checker, or a script's answer its fresh self contradicts. The others (timeout, unknown) are performance findings.
    /// Correctness findings save a bug trigger and are re-run as they are in triage.
    pub fn is_bug(self) -> bool {
        matches!(
            self,
            Verdict::Unsound
                | Verdict::InvalidModel
                | Verdict::Crash
                | Verdict::ValidatorFalseAlarm
                | Verdict::Incremental
        )
    }

    /// Whether the call's answer itself is wrong or missing (unsound, invalid model,
    /// crash): such a call did not solve its formula. A validator false alarm came with
    /// a right `sat` and a model et found valid, so its call solved the formula.
    pub fn spoils_answer(self) -> bool {
        self.is_bug() && self != Verdict::ValidatorFalseAlarm
    }

    /// The verdict of a row written before `validator_false_alarm` existed: such a
    /// file called a self-check failure on a model et found valid `invalid_model` with
    /// evidence `self-check`, which is a validator false alarm.
    pub fn upgraded(
        self,
        evidence: Option<Evidence>,
        model_valid: bool,
    ) -> (Verdict, Option<Evidence>) {
        match (self, evidence) {
            (Verdict::InvalidModel, Some(Evidence::SelfCheck)) if model_valid => {
                (Verdict::ValidatorFalseAlarm, Some(Evidence::Model))
            }
            _ => (self, evidence),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        for s in Status::ALL {
            assert_eq!(s.label().parse::<Status>().unwrap(), *s);
        }
        for v in Verdict::ALL {
            assert_eq!(v.label().parse::<Verdict>().unwrap(), *v);
        }
        for e in Evidence::ALL {
            assert_eq!(e.label().parse::<Evidence>().unwrap(), *e);
        }
    }

    #[test]
    fn serde_uses_the_labels() {
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize((
            Status::SetupError,
            Some(Verdict::InvalidModel),
            None::<Evidence>,
        ))
        .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text, "setup_error,invalid_model,\n");
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        let back: (Status, Option<Verdict>, Option<Evidence>) =
            r.deserialize().next().unwrap().unwrap();
        assert_eq!(
            back,
            (Status::SetupError, Some(Verdict::InvalidModel), None)
        );
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader("sati\n".as_bytes());
        let err = r.deserialize::<(Status,)>().next().unwrap().unwrap_err();
        assert!(err.to_string().contains("`sati`"), "{err}");
    }

    #[test]
    fn unknown_label_names_the_value() {
        let err = "sati".parse::<Status>().unwrap_err().to_string();
        assert!(err.contains("`sati`"), "{err}");
    }
}
