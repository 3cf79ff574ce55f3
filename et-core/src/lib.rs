//! et: grammar-based enumeration testing of SMT solvers.
//!
//! Data flows one way: [`grammar`] (load and validate a theory grammar) →
//! [`enumeration`] (FEAT parts, random access, streaming) → [`solvers`] (pools and
//! solver calls) → [`oracle`] (status and verdict of each call) → [`campaign`]
//! (the `et run` loop and its CSV) → [`report`] (tables and plots from the CSV).

pub mod campaign;
pub mod oracle;
pub mod solvers;
