//! et's own oracle: the value of an SMT-LIB formula under an assignment of its free
//! constants (true, false, or undetermined with a reason, never a guess), the models
//! solvers print, and a bounded search for satisfying assignments.

#![warn(missing_docs)]

pub mod fp;
pub mod regex;
pub mod string;
