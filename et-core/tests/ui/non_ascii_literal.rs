#[derive(et_core::typed::Grammar)]
#[grammar = "ui/non_ascii_literal.pest"]
struct Accented;

fn main() {}
