//! Derive macros for et: `#[derive(Grammar)]` compiles a `.pest` theory grammar and
//! `#[derive(Enumerable)]` a Rust ADT into FEAT enumerations over et-core's engine.
