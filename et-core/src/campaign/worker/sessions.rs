//! A worker's solver sessions, at most [`LIVE_SESSIONS`] processes alive at once. A
//! campaign over hundreds of option configurations would otherwise keep one process
//! per configuration in every worker (z3 5.4.1 and cvc5 1.4.2 have about 1,500
//! single-option configurations between them: tens of GiB of idle solvers). The least
//! recently used session is ended first; it starts again when its solver's turn comes,
//! a start-up per batch at worst, where a batch takes each solver through all its
//! formulas in turn.

use std::collections::{HashMap, VecDeque};

use crate::solvers::session::Session;

/// Solver sessions one worker keeps alive at most.
pub const LIVE_SESSIONS: usize = 16;

/// A worker's sessions by solver name (`None`: the family cannot run one, so its calls
/// are fresh).
#[derive(Default)]
pub struct Sessions {
    by_solver: HashMap<String, Option<Session<'static>>>,
    /// The solvers with a live session, least recently used first.
    recent: VecDeque<String>,
}

impl Sessions {
    /// The session of solver `name`, started by `start` when it has none (ending the
    /// least recently used one first if [`LIVE_SESSIONS`] are alive); `None` when the
    /// solver's family cannot run one.
    pub fn of(
        &mut self,
        name: &str,
        start: impl FnOnce() -> Option<Session<'static>>,
    ) -> Option<&mut Session<'static>> {
        if !self.by_solver.contains_key(name) {
            // A session's process starts with its first formula, after this.
            let session = start();
            if session.is_some() {
                while self.recent.len() >= LIVE_SESSIONS {
                    if let Some(oldest) = self.recent.pop_front() {
                        // Dropping a session kills its process tree and reaps it.
                        self.by_solver.remove(&oldest);
                    }
                }
                self.recent.push_back(name.to_string());
            }
            self.by_solver.insert(name.to_string(), session);
        } else if let Some(at) = self.recent.iter().position(|n| n == name) {
            if let Some(used) = self.recent.remove(at) {
                self.recent.push_back(used);
            }
        }
        self.by_solver.get_mut(name).and_then(Option::as_mut)
    }

    /// The solvers whose session has a formula written ahead: each process may be
    /// working on it, its wall clock running. Another call made meanwhile would
    /// overlap that formula's measured time.
    pub fn ahead(&self) -> impl Iterator<Item = &str> {
        self.by_solver
            .iter()
            .filter(|(_, s)| s.as_ref().is_some_and(Session::is_ahead))
            .map(|(n, _)| n.as_str())
    }

    /// How many sessions are alive.
    #[cfg(test)]
    fn live(&self) -> usize {
        self.recent.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::call::Supervisor;
    use crate::solvers::family::{Echo, SessionProtocol};

    /// A session of `cat`, which answers nothing but lives until ended.
    fn cat() -> Option<Session<'static>> {
        let protocol = SessionProtocol {
            options: &[],
            reset: "(reset)",
            restore: &[],
            echo: Echo::Bare,
            ends_on_error: false,
            model_dump: None,
        };
        Some(Session::new(
            Supervisor::global(),
            &["cat".to_string()],
            protocol,
        ))
    }

    #[test]
    fn the_least_recently_used_session_is_ended_first() {
        let mut sessions = Sessions::default();
        for i in 0..LIVE_SESSIONS {
            assert!(sessions.of(&format!("s{i}"), cat).is_some());
        }
        // s0 used again: s1 is now the least recently used.
        sessions.of("s0", || panic!("s0 is alive"));
        sessions.of("new", cat);
        assert_eq!(sessions.live(), LIVE_SESSIONS);
        assert!(sessions.by_solver.contains_key("s0"));
        assert!(!sessions.by_solver.contains_key("s1"));
        // A family without sessions takes no place among the live ones.
        assert!(sessions.of("fresh-only", || None).is_none());
        assert_eq!(sessions.live(), LIVE_SESSIONS);
        // s1 starts again when its turn comes.
        let mut started = false;
        sessions.of("s1", || {
            started = true;
            cat()
        });
        assert!(started);
    }
}
