//! Performance judged by the whole pool: when the reference decided nothing, a
//! `timeout` or `unknown` is still a finding if another solver of the pool decided the
//! formula with an answer nothing contradicts (a newer release of the same family that
//! decides it is a regression fixed; an older one, a regression).

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Evidence, Status, Verdict};

/// `timeout`/`unknown` with evidence `pool` where another solver decided the formula.
pub struct PoolCheck;

impl Check for PoolCheck {
    fn name(&self) -> &'static str {
        "pool"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        if !call.pool_decided {
            return None;
        }
        let verdict = match call.status {
            Status::Timeout => Verdict::Timeout,
            Status::Unknown if !call.unknown_expected => Verdict::Unknown,
            _ => return None,
        };
        Some(Finding {
            verdict,
            evidence: Some(Evidence::Pool),
        })
    }
}
