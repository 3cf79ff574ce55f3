use et_core::typed::Enumerable;

#[derive(Enumerable)]
enum Term {
    Leaf,
    #[enumerable(weight = 2)]
    Node(Box<Term>, Box<Term>),
}

fn main() {}
