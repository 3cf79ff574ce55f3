#[derive(et_core::typed::Grammar)]
#[grammar = "ui/no_check_sat.pest"]
struct Unchecked;

fn main() {}
