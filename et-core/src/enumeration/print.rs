//! Printing in ET's style: tokens joined by one space, except none after a `(` token
//! and none before a `)` token. Each alternative is precompiled into pieces whose
//! adjacent tokens are already joined, so printing a formula is a few copies; a
//! stream re-prints only the suffix of a formula that its last step changed.

use crate::grammar::{Grammar, Item};

use super::term::{Mark, Term};

#[derive(Debug, Clone)]
enum Piece {
    /// Adjacent tokens, joined.
    Text {
        text: Box<str>,
        /// Starts with a `)` token: no space before it.
        closes: bool,
        /// Ends with a `(` token: no space after it.
        opens: bool,
    },
    /// The j-th child.
    Child(usize),
}

/// Turns terms of one grammar into text.
#[derive(Debug, Clone)]
pub struct Printer {
    pieces: Vec<Vec<Vec<Piece>>>,
}

impl Printer {
    /// Precompiles the alternatives of a grammar.
    pub fn new(grammar: &Grammar) -> Printer {
        let pieces = grammar
            .nonterminals
            .iter()
            .map(|nt| {
                nt.alternatives
                    .iter()
                    .map(|alt| {
                        let mut pieces: Vec<Piece> = Vec::new();
                        let mut child = 0;
                        for item in &alt.items {
                            match *item {
                                Item::Child(_) => {
                                    pieces.push(Piece::Child(child));
                                    child += 1;
                                }
                                Item::Token(t) => {
                                    let token = grammar.token(t);
                                    let (open, close) = (token == "(", token == ")");
                                    match pieces.last_mut() {
                                        Some(Piece::Text { text, opens, .. }) => {
                                            let mut joined = String::from(&**text);
                                            if !*opens && !close {
                                                joined.push(' ');
                                            }
                                            joined.push_str(token);
                                            *text = joined.into();
                                            *opens = open;
                                        }
                                        _ => pieces.push(Piece::Text {
                                            text: token.into(),
                                            closes: close,
                                            opens: open,
                                        }),
                                    }
                                }
                            }
                        }
                        pieces
                    })
                    .collect()
            })
            .collect();
        Printer { pieces }
    }

    /// Appends the text of a term to `out`.
    pub fn print(&self, term: &Term, out: &mut Vec<u8>) {
        let mut space = false;
        self.print_node(term, out, &mut space);
    }

    /// The text of a term.
    pub fn to_string(&self, term: &Term) -> String {
        let mut out = Vec::new();
        self.print(term, &mut out);
        String::from_utf8(out).expect("tokens are UTF-8")
    }

    fn print_node(&self, term: &Term, out: &mut Vec<u8>, space: &mut bool) {
        // Recursion depth is the term's depth, bounded by its size (see MAX_SIZE).
        for piece in &self.pieces[term.nt][term.alt as usize] {
            match piece {
                Piece::Text { .. } => emit(piece, out, space),
                Piece::Child(j) => self.print_node(&term.children[*j], out, space),
            }
        }
    }

    /// Replaces `out` with the text of `term`, marking every node's start.
    pub(crate) fn print_marked(&self, term: &mut Term, out: &mut Vec<u8>) {
        out.clear();
        let mut space = false;
        self.print_marked_node(term, out, &mut space);
    }

    fn print_marked_node(&self, term: &mut Term, out: &mut Vec<u8>, space: &mut bool) {
        term.mark = Mark {
            start: out.len() as u32,
            space: *space,
        };
        self.print_marked_pieces(term, 0, out, space);
    }

    fn print_marked_pieces(
        &self,
        term: &mut Term,
        from: usize,
        out: &mut Vec<u8>,
        space: &mut bool,
    ) {
        for piece in &self.pieces[term.nt][term.alt as usize][from..] {
            match piece {
                Piece::Text { .. } => emit(piece, out, space),
                Piece::Child(j) => self.print_marked_node(&mut term.children[*j], out, space),
            }
        }
    }

    /// Brings `out`, the marked text of `root` before a stream step, up to date after
    /// the step; `path` is the step's path to the first changed node (deepest first).
    pub(crate) fn reprint(&self, root: &mut Term, path: &[usize], out: &mut Vec<u8>) {
        self.reprint_at(root, path, out);
    }

    fn reprint_at(&self, node: &mut Term, path: &[usize], out: &mut Vec<u8>) -> bool {
        let Some((&j, deeper)) = path.split_last() else {
            // The changed node itself: cut the stale text and print it anew.
            out.truncate(node.mark.start as usize);
            let mut space = node.mark.space;
            self.print_marked_node(node, out, &mut space);
            return space;
        };
        let mut space = self.reprint_at(&mut node.children[j], deeper, out);
        // Then everything of this node after child j.
        let slot = self.pieces[node.nt][node.alt as usize]
            .iter()
            .position(|p| matches!(p, Piece::Child(c) if *c == j))
            .expect("child slot exists");
        self.print_marked_pieces(node, slot + 1, out, &mut space);
        space
    }
}

#[inline]
fn emit(piece: &Piece, out: &mut Vec<u8>, space: &mut bool) {
    if let Piece::Text {
        text,
        closes,
        opens,
    } = piece
    {
        if *space && !closes {
            out.push(b' ');
        }
        out.extend_from_slice(text.as_bytes());
        *space = !opens;
    }
}
