//! The configurations of one solver release, enumerated in ET's spirit: the curated
//! modes of its family first (those its catalog has), then every configuration of one
//! option, then of two, and so on. Within a size, options come in catalog order and
//! each takes the values [`values`] gives it (Booleans flipped, enumerations each other
//! value, numbers a few); a configuration of `k` options is unranked from its index
//! with the elementary symmetric sums of the options' value counts, so any index is
//! reached directly, as formulas are.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::Catalog;
use crate::solvers::family::catalog::{Curated, OptionKind, OptionSpec};

/// One configuration: options set on top of the release's default mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Configuration {
    /// Its index in the enumeration of [`Space`].
    pub index: BigUint,
    /// What follows the solver's name in the configuration's name: a curated mode's
    /// name, or `o` and its index among the enumerated configurations (`o17`).
    pub suffix: String,
    /// `(option, value)` pairs, in catalog order for enumerated configurations.
    pub options: Vec<(String, String)>,
    /// The curated mode's description, for a curated configuration.
    pub curated: Option<&'static str>,
}

impl Configuration {
    /// The configuration's solver name: `<solver>+<suffix>` (`z3-4.16.0+newcore`).
    pub fn name_for(&self, solver: &str) -> String {
        format!("{solver}+{}", self.suffix)
    }

    /// Its options as `name=value` words.
    pub fn option_words(&self) -> Vec<String> {
        self.options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect()
    }
}

/// The values an enumerated option takes besides its default: a Boolean the other
/// one, an enumeration each other value, a number 0, 1, 2 and ten times its default
/// (100 when the default is 0), within its range; nothing for free text.
pub fn values(spec: &OptionSpec) -> Vec<String> {
    let default = spec.default.as_deref();
    let mut out: Vec<String> = Vec::new();
    let mut push = |v: String| {
        if spec.allows(&v) && !same_value(spec.kind, default, &v) && !out.contains(&v) {
            out.push(v);
        }
    };
    match spec.kind {
        OptionKind::Bool => ["true", "false"].into_iter().for_each(|v| push(v.into())),
        OptionKind::Enum => spec.values.iter().for_each(|v| push(v.clone())),
        OptionKind::Int | OptionKind::Uint => {
            ["0", "1", "2"].into_iter().for_each(|v| push(v.into()));
            match default.and_then(|d| d.parse::<i128>().ok()) {
                Some(0) | None => push("100".into()),
                Some(d) => {
                    if let Some(ten) = d.checked_mul(10) {
                        push(ten.to_string())
                    }
                }
            }
        }
        OptionKind::Real => {
            ["0", "1", "2"].into_iter().for_each(|v| push(v.into()));
            match default.and_then(|d| d.parse::<f64>().ok()) {
                Some(d) if d != 0.0 => push(format!("{}", d * 10.0)),
                _ => push("100".into()),
            }
        }
        OptionKind::Text => {}
    }
    out
}

/// Whether `value` is the option's default (numbers compared as numbers).
fn same_value(kind: OptionKind, default: Option<&str>, value: &str) -> bool {
    let Some(default) = default else { return false };
    match kind {
        OptionKind::Int | OptionKind::Uint | OptionKind::Real => {
            match (default.parse::<f64>(), value.parse::<f64>()) {
                (Ok(a), Ok(b)) => a == b,
                _ => default == value,
            }
        }
        _ => default == value,
    }
}

/// The configurations of one catalog: curated modes, then enumerated ones by size.
#[derive(Debug, Clone)]
pub struct Space {
    curated: Vec<Configuration>,
    /// The enumerated options: name and non-default values, in catalog order.
    options: Vec<(String, Vec<String>)>,
    /// `sums[j][i]`: the number of configurations of `j` options among options `i..`.
    sums: Vec<Vec<BigUint>>,
}

impl Space {
    /// The configurations of `catalog` with at most `max_options` enumerated options,
    /// after `curated` (the family's modes, kept when the catalog has every option
    /// with an allowed value and at least one of them is not the default).
    pub fn new(catalog: &Catalog, curated: &[Curated], max_options: usize) -> Space {
        let mut kept = Vec::new();
        for mode in curated {
            let specs: Option<Vec<&OptionSpec>> =
                mode.options.iter().map(|(n, _)| catalog.get(n)).collect();
            let Some(specs) = specs else { continue };
            let allowed = specs
                .iter()
                .zip(mode.options)
                .all(|(s, (_, v))| s.allows(v));
            let changes = specs
                .iter()
                .zip(mode.options)
                .any(|(s, (_, v))| !same_value(s.kind, s.default.as_deref(), v));
            if allowed && changes {
                kept.push(Configuration {
                    index: BigUint::from(kept.len()),
                    suffix: mode.name.to_string(),
                    options: mode
                        .options
                        .iter()
                        .map(|(n, v)| (n.to_string(), v.to_string()))
                        .collect(),
                    curated: Some(mode.description),
                });
            }
        }
        let options: Vec<(String, Vec<String>)> = catalog
            .enumerated()
            .map(|spec| (spec.name.clone(), values(spec)))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        let n = options.len();
        let mut sums = vec![vec![BigUint::one(); n + 1]];
        for j in 1..=max_options {
            let mut row = vec![BigUint::zero(); n + 1];
            for i in (0..n).rev() {
                row[i] = &row[i + 1] + &sums[j - 1][i + 1] * options[i].1.len();
            }
            sums.push(row);
        }
        Space {
            curated: kept,
            options,
            sums,
        }
    }

    /// The curated configurations the release offers.
    pub fn curated(&self) -> &[Configuration] {
        &self.curated
    }

    /// How many options are enumerated (each with at least one value).
    pub fn option_count(&self) -> usize {
        self.options.len()
    }

    /// How many configurations set exactly `k` enumerated options (`k` at most the
    /// space's maximum).
    pub fn of_size(&self, k: usize) -> BigUint {
        self.sums
            .get(k)
            .map_or_else(BigUint::zero, |row| row[0].clone())
    }

    /// How many configurations the space holds, curated ones included.
    pub fn len(&self) -> BigUint {
        (1..self.sums.len())
            .map(|k| self.of_size(k))
            .sum::<BigUint>()
            + self.curated.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len().is_zero()
    }

    /// The configuration at `index`, or `None` past the end.
    pub fn get(&self, index: &BigUint) -> Option<Configuration> {
        if let Some(c) = index.to_usize().and_then(|i| self.curated.get(i)) {
            return Some(c.clone());
        }
        let enumerated = index - BigUint::from(self.curated.len());
        let mut rank = enumerated.clone();
        for k in 1..self.sums.len() {
            let size = self.of_size(k);
            if rank < size {
                return Some(Configuration {
                    index: index.clone(),
                    suffix: format!("o{enumerated}"),
                    options: self.unrank(k, rank),
                    curated: None,
                });
            }
            rank -= size;
        }
        None
    }

    /// The `rank`-th choice of `k` options with values, in catalog order.
    fn unrank(&self, k: usize, mut rank: BigUint) -> Vec<(String, String)> {
        let mut picked = Vec::with_capacity(k);
        let mut start = 0;
        for j in (1..=k).rev() {
            for i in start..self.options.len() {
                let rest = &self.sums[j - 1][i + 1];
                let block = rest * self.options[i].1.len();
                if rank < block {
                    let value = (&rank / rest).to_usize().unwrap_or(0);
                    rank %= rest;
                    let (name, values) = &self.options[i];
                    picked.push((name.clone(), values[value].clone()));
                    start = i + 1;
                    break;
                }
                rank -= block;
            }
        }
        picked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        let mut e = OptionSpec::new("mode", OptionKind::Enum, Some("a"));
        e.values = vec!["a".into(), "b".into(), "c".into()];
        let options = vec![
            OptionSpec::new("flag", OptionKind::Bool, Some("false")),
            e,
            OptionSpec::new("n", OptionKind::Uint, Some("5")),
            OptionSpec::new("file", OptionKind::Text, None),
        ];
        Catalog::new("fake-1", "fake", "1", options, |_| None)
    }

    #[test]
    fn values_are_the_documented_few() {
        let c = catalog();
        assert_eq!(values(c.get("flag").unwrap()), ["true"]);
        assert_eq!(values(c.get("mode").unwrap()), ["b", "c"]);
        assert_eq!(values(c.get("n").unwrap()), ["0", "1", "2", "50"]);
        assert!(values(c.get("file").unwrap()).is_empty());
        let zero = OptionSpec::new("z", OptionKind::Real, Some("0"));
        assert_eq!(values(&zero), ["1", "2", "100"]);
    }

    #[test]
    fn fewest_options_first_and_every_index_distinct() {
        let curated = [Curated {
            name: "both",
            options: &[("flag", "true"), ("mode", "c")],
            description: "test",
        }];
        let space = Space::new(&catalog(), &curated, 3);
        assert_eq!(space.of_size(1), BigUint::from(7u32));
        // Pairs: 1*2 + 1*4 + 2*4.
        assert_eq!(space.of_size(2), BigUint::from(14u32));
        assert_eq!(space.of_size(3), BigUint::from(8u32));
        assert_eq!(space.len(), BigUint::from(30u32));
        let all: Vec<Configuration> = (0..30u32)
            .map(|i| space.get(&BigUint::from(i)).unwrap())
            .collect();
        assert!(space.get(&BigUint::from(30u32)).is_none());
        assert_eq!(all[0].suffix, "both");
        assert_eq!(all[1].options, [("flag".to_string(), "true".to_string())]);
        assert_eq!(all[1].suffix, "o0");
        assert_eq!(all[7].options, [("n".to_string(), "50".to_string())]);
        let sizes: Vec<usize> = all[1..].iter().map(|c| c.options.len()).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
        let enumerated = &all[1..];
        for (i, a) in enumerated.iter().enumerate() {
            assert!(enumerated[i + 1..].iter().all(|b| b.options != a.options));
            assert!(all.iter().filter(|b| b.suffix == a.suffix).count() == 1);
        }
    }

    #[test]
    fn curated_modes_need_the_catalog() {
        let curated = [
            Curated {
                name: "missing",
                options: &[("nowhere", "true")],
                description: "",
            },
            Curated {
                name: "default",
                options: &[("flag", "false")],
                description: "",
            },
            Curated {
                name: "bad",
                options: &[("mode", "z")],
                description: "",
            },
        ];
        assert!(Space::new(&catalog(), &curated, 1).curated().is_empty());
    }
}
