//! et's evaluator agrees with z3 4.16.0 and cvc5 1.4.2 on random closed formulas of
//! the theories a user's grammar may reach beyond the built-in grammars: bit-vectors
//! of widths 1 to 130 with every indexed operator, and floating point in Float16,
//! Float32 and Float64 with every rounding mode and the conversions. A closed formula
//! is true iff it is satisfiable (unspecified results — fp.to_real of infinities,
//! fp.to_ubv out of range — are existential for et and the solvers alike), so et's
//! true/false must be each solver's sat/unsat.

mod common;

use std::process::Command;

use common::{solver, Scratch};
use et_eval::{evaluate, Assignment, Limits, Script, Truth};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    fn bv_literal(&mut self, w: u32) -> String {
        let bits: String = (0..w)
            .map(|_| if self.rng.gen_bool(0.5) { '1' } else { '0' })
            .collect();
        format!("#b{bits}")
    }

    /// A closed bit-vector term of width `w`.
    fn bv(&mut self, w: u32, depth: u32) -> String {
        if depth == 0 {
            return self.bv_literal(w);
        }
        let d = depth - 1;
        match self.rng.gen_range(0..14) {
            0 => self.bv_literal(w),
            1 if w >= 2 => {
                let left = self.rng.gen_range(1..w);
                format!("(concat {} {})", self.bv(left, d), self.bv(w - left, d))
            }
            2 => {
                let extra = self.rng.gen_range(0..4);
                let j = self.rng.gen_range(0..=extra);
                format!("((_ extract {} {j}) {})", j + w - 1, self.bv(w + extra, d))
            }
            3 if w >= 2 => {
                let k = self.rng.gen_range(1..w.min(5));
                let op = if self.rng.gen() {
                    "zero_extend"
                } else {
                    "sign_extend"
                };
                format!("((_ {op} {k}) {})", self.bv(w - k, d))
            }
            4 if w.is_multiple_of(2) => format!("((_ repeat 2) {})", self.bv(w / 2, d)),
            5 => {
                let op = if self.rng.gen() {
                    "rotate_left"
                } else {
                    "rotate_right"
                };
                format!(
                    "((_ {op} {}) {})",
                    self.rng.gen_range(0..2 * w),
                    self.bv(w, d)
                )
            }
            6 if w == 1 => {
                let v = self.rng.gen_range(1..70);
                format!("(bvcomp {} {})", self.bv(v, d), self.bv(v, d))
            }
            7 => {
                let ops = ["bvnand", "bvnor", "bvxnor", "bvand", "bvor", "bvxor"];
                let op = ops[self.rng.gen_range(0..ops.len())];
                format!("({op} {} {})", self.bv(w, d), self.bv(w, d))
            }
            8 => {
                let ops = ["bvadd", "bvsub", "bvmul", "bvudiv", "bvurem"];
                let op = ops[self.rng.gen_range(0..ops.len())];
                format!("({op} {} {})", self.bv(w, d), self.bv(w, d))
            }
            9 => {
                let ops = ["bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr"];
                let op = ops[self.rng.gen_range(0..ops.len())];
                format!("({op} {} {})", self.bv(w, d), self.bv(w, d))
            }
            10 => format!("(bvneg {})", self.bv(w, d)),
            _ => self.bv_literal(w),
        }
    }

    fn bv_formula(&mut self) -> String {
        let w = [1, 3, 8, 16, 63, 64, 65, 100, 128, 130][self.rng.gen_range(0..10)];
        let ops = ["=", "bvult", "bvslt", "bvuge", "distinct"];
        let op = ops[self.rng.gen_range(0..ops.len())];
        format!("({op} {} {})", self.bv(w, 3), self.bv(w, 3))
    }

    fn rm(&mut self) -> &'static str {
        ["RNE", "RNA", "RTP", "RTN", "RTZ"][self.rng.gen_range(0..5)]
    }

    fn real(&mut self) -> String {
        let n: i64 = self.rng.gen_range(-70000..70000);
        let d: i64 = [1, 3, 7, 1024, 16777216][self.rng.gen_range(0..5)];
        if n < 0 {
            format!("(- (/ {}.0 {d}.0))", -n)
        } else {
            format!("(/ {n}.0 {d}.0)")
        }
    }

    /// A closed floating-point term of format (eb, sb).
    fn fp(&mut self, (eb, sb): (u32, u32), depth: u32) -> String {
        let d = depth.saturating_sub(1);
        let choice = if depth == 0 {
            self.rng.gen_range(0..3)
        } else {
            self.rng.gen_range(0..12)
        };
        match choice {
            0 => format!("((_ to_fp {eb} {sb}) {} {})", self.rm(), self.real()),
            1 => format!("((_ to_fp {eb} {sb}) {})", self.bv_literal(eb + sb)),
            2 => ["+zero", "-zero", "+oo", "-oo", "NaN"][self.rng.gen_range(0..5)]
                .to_string()
                .replace("+zero", &format!("(_ +zero {eb} {sb})"))
                .replace("-zero", &format!("(_ -zero {eb} {sb})"))
                .replace("+oo", &format!("(_ +oo {eb} {sb})"))
                .replace("-oo", &format!("(_ -oo {eb} {sb})"))
                .replace("NaN", &format!("(_ NaN {eb} {sb})")),
            3 | 4 => {
                let ops = ["fp.add", "fp.sub", "fp.mul", "fp.div"];
                let op = ops[self.rng.gen_range(0..4)];
                format!(
                    "({op} {} {} {})",
                    self.rm(),
                    self.fp((eb, sb), d),
                    self.fp((eb, sb), d)
                )
            }
            5 => format!(
                "(fp.fma {} {} {} {})",
                self.rm(),
                self.fp((eb, sb), d),
                self.fp((eb, sb), d),
                self.fp((eb, sb), d)
            ),
            6 => format!("(fp.sqrt {} {})", self.rm(), self.fp((eb, sb), d)),
            7 => format!(
                "(fp.roundToIntegral {} {})",
                self.rm(),
                self.fp((eb, sb), d)
            ),
            8 => format!("(fp.rem {} {})", self.fp((eb, sb), d), self.fp((eb, sb), d)),
            9 => {
                let other = [(5, 11), (8, 24), (11, 53)][self.rng.gen_range(0..3)];
                format!("((_ to_fp {eb} {sb}) {} {})", self.rm(), self.fp(other, d))
            }
            10 => {
                let w = self.rng.gen_range(1..20);
                format!("((_ to_fp {eb} {sb}) {} {})", self.rm(), self.bv(w, 0))
            }
            _ => format!("(fp.neg {})", self.fp((eb, sb), d)),
        }
    }

    fn fp_formula(&mut self, formats: &[(u32, u32)]) -> String {
        let f = formats[self.rng.gen_range(0..formats.len())];
        match self.rng.gen_range(0..7) {
            0 => format!("(fp.lt {} {})", self.fp(f, 2), self.fp(f, 2)),
            1 => format!("(fp.eq {} {})", self.fp(f, 2), self.fp(f, 2)),
            2 => format!("(= {} {})", self.fp(f, 2), self.fp(f, 2)),
            3 => {
                let preds = [
                    "fp.isNormal",
                    "fp.isSubnormal",
                    "fp.isZero",
                    "fp.isNaN",
                    "fp.isNegative",
                ];
                format!("({} {})", preds[self.rng.gen_range(0..5)], self.fp(f, 2))
            }
            4 => format!("(< (fp.to_real {}) {})", self.fp(f, 2), self.real()),
            5 => {
                // Out-of-range results wider than 8 bits are undetermined for et (all
                // 2^w values would be tried); the widths stay within that.
                let w = self.rng.gen_range(1..=8);
                let op = if self.rng.gen() {
                    "fp.to_ubv"
                } else {
                    "fp.to_sbv"
                };
                format!(
                    "(= ((_ {op} {w}) {} {}) {})",
                    self.rm(),
                    self.fp(f, 2),
                    self.bv_literal(w)
                )
            }
            _ => format!("(fp.leq {} {})", self.fp(f, 2), self.fp(f, 2)),
        }
    }
}

/// Each solver's answers to the formulas, one incremental script per solver.
fn answers(scratch: &Scratch, name: &str, args: &[&str], formulas: &[String]) -> Vec<String> {
    let mut script = String::from("(set-logic ALL)\n");
    for f in formulas {
        script.push_str(&format!("(push 1)\n(assert {f})\n(check-sat)\n(pop 1)\n"));
    }
    let file = scratch.join(&format!("{name}.smt2"));
    std::fs::write(&file, script).unwrap();
    let s = solver(name);
    let out = Command::new(s.program())
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    assert_eq!(lines.len(), formulas.len(), "{name}: {text}");
    lines
}

fn compare(label: &str, formulas: &[String], solvers: &[(&str, &[&str])]) {
    let scratch = Scratch::new();
    let truths: Vec<Truth> = formulas
        .iter()
        .map(|f| {
            let script =
                Script::parse(&format!("(assert {f})")).unwrap_or_else(|e| panic!("{f}: {e}"));
            evaluate(&script, &Assignment::default(), &Limits::default()).truth
        })
        .collect();
    let undetermined = truths
        .iter()
        .filter(|t| matches!(t, Truth::Undetermined(_)))
        .count();
    let trues = truths.iter().filter(|t| **t == Truth::True).count();
    for (f, t) in formulas.iter().zip(&truths) {
        if let Truth::Undetermined(why) = t {
            eprintln!("{label}: undetermined: {f}: {why}");
        }
    }
    for (name, args) in solvers {
        let answers = answers(&scratch, name, args, formulas);
        let mut disagreements = Vec::new();
        let mut compared = 0;
        for ((f, t), a) in formulas.iter().zip(&truths).zip(&answers) {
            match (t, a.as_str()) {
                (Truth::True, "sat") | (Truth::False, "unsat") => compared += 1,
                (Truth::Undetermined(_), _) | (_, "unknown") => {}
                _ => disagreements.push(format!("{f}: et {t}, {name} {a}")),
            }
        }
        eprintln!(
            "{label}: {name}: {compared} agree, {} disagree, et undetermined {undetermined}, true {trues}",
            disagreements.len()
        );
        assert!(
            disagreements.is_empty(),
            "{label}: {} disagreements with {name}:\n{}",
            disagreements.len(),
            disagreements[..disagreements.len().min(5)].join("\n")
        );
        assert!(
            compared * 100 >= formulas.len() * 95,
            "{label}: {name}: {compared} compared"
        );
    }
    assert_eq!(undetermined, 0, "{label}");
    assert!(trues > formulas.len() / 10 && trues < formulas.len() * 9 / 10);
}

#[test]
fn bit_vectors_of_any_width_agree_with_z3_and_cvc5() {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(23),
    };
    let formulas: Vec<String> = (0..400).map(|_| g.bv_formula()).collect();
    compare(
        "bit-vectors",
        &formulas,
        &[("z3-4.16.0", &[]), ("cvc5-1.4.2", &["--incremental"])],
    );
}

#[test]
fn floating_point_formats_agree_with_z3_and_cvc5() {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(24),
    };
    let all: Vec<String> = (0..300)
        .map(|_| g.fp_formula(&[(5, 11), (8, 24), (11, 53)]))
        .collect();
    compare("floating point", &all, &[("z3-4.16.0", &[])]);
    // cvc5 takes formats other than Float32/Float64 only with its experimental solver.
    let common: Vec<String> = (0..300)
        .map(|_| g.fp_formula(&[(8, 24), (11, 53)]))
        .filter(|f| !f.contains(" 5 11)"))
        .collect();
    compare(
        "floating point (Float32/Float64)",
        &common,
        &[("z3-4.16.0", &[]), ("cvc5-1.4.2", &["--incremental"])],
    );
}
