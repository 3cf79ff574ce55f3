#[derive(et_core::typed::Grammar)]
#[grammar = "ui/zero_cost_cycle.pest"]
struct Cycle;

fn main() {}
