#[derive(et_core::typed::Grammar)]
#[grammar = "ui/no_such_file.pest"]
struct Missing;

fn main() {}
