//! One solver process for a whole differential test: each claim is checked in its own
//! push/pop scope, so thousands of them cost one process start. The solvers are
//! Debian's z3 and cvc5, which the setup installs; the tests are pinned to their
//! versions because the semantics compared (unspecified cases, string escapes, which
//! operators a solver evaluates) change between releases.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A pinned solver: its path, the text its `--version` must contain, and how to run it
/// on commands from stdin.
struct Pinned {
    path: &'static str,
    version: &'static str,
    args: &'static [&'static str],
}

const Z3: Pinned = Pinned {
    path: "/usr/bin/z3",
    version: "Z3 version 4.8.12 ",
    args: &["-in"],
};

/// cvc5 evaluates `str.replace_re` and `str.replace_re_all`, which z3 leaves unknown.
const CVC5: Pinned = Pinned {
    path: "/usr/bin/cvc5",
    version: "cvc5 version 1.0.3",
    args: &["--incremental", "--strings-exp", "--lang", "smt2"],
};

/// A running solver reading commands from stdin.
pub struct Session {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Claims checked so far (for the tests' own sanity assertions).
    pub checked: usize,
}

/// z3's answer to one check-sat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    Unknown,
}

impl Session {
    /// Debian's z3 4.8.12.
    pub fn z3() -> Session {
        let mut session = Session::start(&Z3);
        // A query z3 cannot settle must not stall the test: unknown after 10 s.
        session.send("(set-option :timeout 10000)");
        session
    }

    /// Debian's cvc5 1.0.3.
    pub fn cvc5() -> Session {
        let mut session = Session::start(&CVC5);
        session.send("(set-logic ALL)");
        session
    }

    /// Start a pinned solver, failing (not skipping) if it is missing or another version.
    fn start(pinned: &Pinned) -> Session {
        let path = pinned.path;
        let version = Command::new(path)
            .arg("--version")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {path} ({e}); scripts/setup.sh installs it"));
        let version = String::from_utf8_lossy(&version.stdout);
        assert!(
            version.contains(pinned.version),
            "{path} is `{}`, but these tests are pinned to `{}`",
            version.lines().next().unwrap_or_default(),
            pinned.version
        );
        let mut child = Command::new(path)
            .args(pinned.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("z3 starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Session {
            name: pinned.version.trim(),
            child,
            stdin,
            stdout,
            checked: 0,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("write to z3");
    }

    /// Check `assertions` (SMT-LIB commands, typically declarations and asserts) in a
    /// fresh scope.
    pub fn check(&mut self, assertions: &str) -> Answer {
        self.send(&format!("(push 1)\n{assertions}\n(check-sat)\n(pop 1)"));
        self.stdin.flush().expect("flush to z3");
        self.checked += 1;
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("read from z3");
            assert!(
                read > 0,
                "{} exited while checking:\n{assertions}",
                self.name
            );
            match line.trim() {
                "sat" => return Answer::Sat,
                "unsat" => return Answer::Unsat,
                "unknown" => return Answer::Unknown,
                "" => continue,
                other => panic!("{} said `{other}` to:\n{assertions}", self.name),
            }
        }
    }

    /// Whether the solver agrees that the closed Boolean term `claim` holds (its negation
    /// is unsat); panics with the claim if the solver finds it false or cannot tell.
    pub fn assert_holds(&mut self, claim: &str, context: &str) {
        let name = self.name;
        match self.check(&format!("(assert (not {claim}))")) {
            Answer::Unsat => {}
            Answer::Sat => panic!("{name} disagrees: {claim} is false\n({context})"),
            Answer::Unknown => panic!("{name} answered unknown on {claim}\n({context})"),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "(exit)");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
