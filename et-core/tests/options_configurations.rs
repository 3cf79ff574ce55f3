//! Option configurations on real solvers: catalogs read from z3, cvc5, yices and
//! bitwuzla, their
//! enumeration, and campaigns over configurations (a fake solver whose one option
//! injects wrong answers, z3's curated modes in sessions, options a solver refuses).

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use common::{fake_release, fake_script, manifest, rows, show, solver, stdout, Scratch};
use et_core::oracle::{Status, Verdict};

/// `et args` with `$ET_HOME` in the scratch directory (catalogs are cached there).
fn et(s: &Scratch, args: &[&str]) -> Output {
    let o = s
        .et()
        .env("ET_HOME", s.join("home"))
        .args(args)
        .output()
        .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// `et run` of the first `n` formulas of `grammar` over `configurations` of `pool`'s
/// solvers, into `out` (10 s per call), with `extra` arguments; it must succeed.
fn run_configurations(
    s: &Scratch,
    grammar: &str,
    n: usize,
    pool: &str,
    configurations: &str,
    out: &Path,
    extra: &[&str],
) {
    let n = n.to_string();
    let mut args = vec![
        "run",
        "-g",
        grammar,
        "--n",
        &n,
        "--timeout",
        "10",
        "--pool",
        pool,
        "--configurations",
        configurations,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = et(s, &args);
    assert!(o.status.success(), "{}", show(&o));
}

/// `et triage` of the run in `out` over `pool`; it must succeed.
fn triage(s: &Scratch, out: &Path, pool: &str) {
    let run = out.to_str().unwrap();
    let o = et(s, &["triage", run, "--pool", pool, "--jobs", "2"]);
    assert!(o.status.success(), "{}", show(&o));
}

/// The rows of a table printed by `et options`, without its header.
fn table(o: &Output) -> Vec<Vec<String>> {
    assert!(o.status.success(), "{}", show(o));
    stdout(o)
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn catalogs_are_read_from_z3_and_cvc5() {
    let s = Scratch::new();
    let pool = s.pool_file(
        "pool.toml",
        &[
            solver("z3-4.16.0"),
            solver("cvc5-1.4.2"),
            et_core::solvers::testing::test_extra("cvc5-1.1.2"),
        ],
    );
    let pool = pool.to_str().unwrap();
    // cvc5 1.4.2 through et's C-API runner, 1.1.2 (no C API) through its Python driver.
    for (name, at_least) in [("z3-4.16.0", 500), ("cvc5-1.4.2", 300), ("cvc5-1.1.2", 300)] {
        let rows = table(&et(&s, &["options", "list", name, "--pool", pool]));
        assert!(rows.len() >= at_least, "{name}: {} options", rows.len());
        for r in &rows {
            // The sixth column, the solver's category for the option, came last.
            assert_eq!(r.len(), 6, "{r:?}");
            let categories = ["-", "common", "regular", "expert", "undocumented"];
            assert!(categories.contains(&r[5].as_str()), "{r:?}");
            // Only cvc5's C API gives categories (not z3, nor 1.1.2's Python API).
            assert_eq!(name == "cvc5-1.4.2", r[5] != "-", "{name}: {r:?}");
            assert!(
                ["bool", "int", "uint", "real", "enum", "text"].contains(&r[1].as_str()),
                "{r:?}"
            );
            assert!(
                r[4].starts_with("yes: ") || r[4].starts_with("no: "),
                "{r:?}"
            );
        }
        let with_default = rows.iter().filter(|r| r[2] != "-").count();
        assert!(
            with_default * 10 >= rows.len() * 9,
            "{name}: {with_default} defaults"
        );
        // Cached per solver, checked against its program.
        assert!(s.join(&format!("home/cache/options/{name}.tsv")).is_file());
    }
    let z3 = table(&et(&s, &["options", "list", "z3-4.16.0", "--pool", pool]));
    let get = |n: &str| z3.iter().find(|r| r[0] == n).unwrap().clone();
    assert_eq!(get("smt.arith.solver")[1..3], ["uint", "6"]);
    assert!(
        get("sat.euf")[4].contains("not ready"),
        "{:?}",
        get("sat.euf")
    );
    assert!(get("timeout")[4].starts_with("no: a limit"));
    assert!(get("smt.random_seed")[4].starts_with("no: random seed"));
    assert_eq!(get("rewriter.flat")[4], "yes: false");
    // Options that change what the formula means are not enumerated.
    for changes_meaning in ["rewriter.hi_div0", "smt.arith.ignore_int"] {
        let row = get(changes_meaning);
        assert!(row[4].starts_with("no: changes the meaning"), "{row:?}");
    }
    let cvc5 = table(&et(&s, &["options", "list", "cvc5-1.4.2", "--pool", pool]));
    let get = |n: &str| cvc5.iter().find(|r| r[0] == n).unwrap().clone();
    assert_eq!(get("simplification")[1..4], ["enum", "batch", "batch|none"]);
    assert_eq!(get("simplification")[4], "yes: none");
    assert!(get("tlimit")[4].starts_with("no: "));
    assert!(get("check-models")[4].starts_with("no: a self-check"));
    let old = table(&et(&s, &["options", "list", "cvc5-1.1.2", "--pool", pool]));
    let get = |n: &str| old.iter().find(|r| r[0] == n).unwrap().clone();
    assert_eq!(get("simplification")[1..4], ["enum", "batch", "batch|none"]);
    assert_eq!(get("random-freq")[3], "0.0..1.0");
    assert_eq!(get("nl-cov")[4], "yes: true");
}

/// cvc5's option categories, read by et's C-API driver from the library (the
/// `category` of its `Cvc5OptionInfo`): `expert` options are for developers, and
/// cvc5's maintainers rank findings that need them far below default-mode ones.
#[test]
fn cvc5_option_categories_are_read_from_the_library() {
    use et_core::solvers::family::catalog::{category_of, OptionCategory};
    let s = Scratch::new();
    let cvc5 = solver("cvc5-1.4.2");
    let pool = s.pool_file("pool.toml", std::slice::from_ref(&cvc5));
    let pool = pool.to_str().unwrap();
    let category = |rows: &[Vec<String>], n: &str| {
        rows.iter()
            .find(|r| r[0] == n)
            .unwrap_or_else(|| panic!("no option {n}"))[5]
            .clone()
    };
    let check = |rows: &[Vec<String>]| {
        assert_eq!(category(rows, "bv-rw-extend-eq"), "expert");
        assert_eq!(category(rows, "restart-int-base"), "expert");
        for user_option in ["produce-models", "check-models"] {
            let c = category(rows, user_option);
            assert!(c == "common" || c == "regular", "{user_option}: {c}");
        }
        let experts = rows.iter().filter(|r| r[5] == "expert").count();
        assert!(experts >= 100, "{experts} expert options");
    };
    let rows = table(&et(&s, &["options", "list", "cvc5-1.4.2", "--pool", pool]));
    check(&rows);
    // The catalog's own reading of it, in the library.
    let cache = s.join("cache");
    let catalog = et_core::solvers::options::catalog_of(&cvc5, &cache).unwrap();
    let specs: Vec<_> = catalog.options.iter().map(|(o, _)| o.clone()).collect();
    assert!(category_of(&specs, "bv-rw-extend-eq").is_some_and(OptionCategory::is_expert));
    assert!(!category_of(&specs, "produce-models").is_some_and(OptionCategory::is_expert));
    assert!(category_of(&specs, "produce-models").is_some());
    assert_eq!(
        catalog.category("restart-int-base"),
        Some(OptionCategory::Expert)
    );

    // A home whose cache holds the listing an older et wrote (five fields, stamped
    // without the catalog format) gets the categories without reinstalling.
    let meta = std::fs::metadata(cvc5.program()).unwrap();
    let modified = meta
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let old_header = format!(
        "# options of {} ({} bytes, modified {modified})\n",
        cvc5.program(),
        meta.len()
    );
    let file = s.join("home/cache/options/cvc5-1.4.2.tsv");
    let cached = std::fs::read_to_string(&file).unwrap();
    let five_fields: String = cached
        .lines()
        .skip(1)
        .map(|l| format!("{}\n", l.rsplit_once('\t').unwrap().0))
        .collect();
    assert!(five_fields.starts_with("abstract-values\tbool\tfalse\t-\t\n"));
    std::fs::write(&file, format!("{old_header}{five_fields}")).unwrap();
    let rows = table(&et(&s, &["options", "list", "cvc5-1.4.2", "--pool", pool]));
    check(&rows);
    let relisted = std::fs::read_to_string(&file).unwrap();
    assert!(relisted.starts_with("# options of ") && relisted.contains("catalog format 2"));
}

#[test]
fn the_bitwuzla_catalog_is_read_through_its_python_api() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("bitwuzla-0.9.1")]);
    let pool = pool.to_str().unwrap();
    let rows = table(&et(
        &s,
        &["options", "list", "bitwuzla-0.9.1", "--pool", pool],
    ));
    assert!(rows.len() >= 50, "{} options", rows.len());
    let get = |n: &str| rows.iter().find(|r| r[0] == n).unwrap().clone();
    assert_eq!(
        get("bv-solver")[1..4],
        ["enum", "bitblast", "preprop|prop|bitblast"]
    );
    assert_eq!(get("rewrite-level")[1..3], ["uint", "2"]);
    assert_eq!(get("abstraction")[4], "yes: false");
    assert!(get("produce-models")[4].starts_with("no: "));
    assert!(get("check-model")[4].starts_with("no: a self-check"));
    // The options go to the driver in bitwuzla's own syntax: the first three
    // configurations are taken (none refused) and answer every formula in sessions.
    let out = s.join("campaign");
    run_configurations(&s, "bitvectors", 30, pool, "bitwuzla-0.9.1:0..3", &out, &[]);
    let (_, m) = manifest(&out);
    let names: BTreeSet<String> = m.solvers.iter().map(|s| s.name.clone()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    let calls = common::rows(&out);
    assert_eq!(calls.len(), 90);
    assert!(calls
        .iter()
        .all(|r| names.contains(&r.solver) && matches!(r.status, Status::Sat | Status::Unsat)));
}

#[test]
fn more_configurations_than_live_sessions_run_in_sessions() {
    // 20 single-option configurations of z3, more than the 16 sessions a worker keeps
    // alive: the least recently used are ended and started again, and every call is
    // still answered in a session. (Configurations 54 to 73 set options of z3's SAT
    // solver, which acts on any formula.)
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    let out = s.join("many");
    run_configurations(
        &s,
        "core",
        40,
        pool.to_str().unwrap(),
        "z3-4.16.0:54..74",
        &out,
        &["--jobs", "2"],
    );
    let (_, m) = manifest(&out);
    let taken = m.solvers.len();
    let calls = common::rows(&out);
    assert_eq!(calls.len(), 40 * taken, "{taken} configurations taken");
    assert!(taken >= 17, "{taken} configurations taken");
    assert!(calls
        .iter()
        .all(|r| matches!(r.status, Status::Sat | Status::Unsat)
            && r.mode == Some(et_core::judging::CallMode::Session)));
}

#[test]
fn the_yices_catalog_is_read_from_its_three_help_texts() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("yices-2.6.5")]);
    let pool = pool.to_str().unwrap();
    let rows = table(&et(&s, &["options", "list", "yices-2.6.5", "--pool", pool]));
    let get = |n: &str| rows.iter().find(|r| r[0] == n).unwrap().clone();
    // The main help, MCSat's and the exists-forall solver's.
    assert_eq!(get("delegate")[1], "enum");
    assert!(
        get("delegate")[3].contains("y2sat"),
        "{:?}",
        get("delegate")
    );
    assert_eq!(
        get("mcsat-nra-nlsat")[1..5],
        ["bool", "false", "-", "yes: true"]
    );
    assert!(get("ematch")[4].starts_with("no: exists-forall"));
    assert!(get("timeout")[4].starts_with("no: a limit"));
    // Curated first: MCSat on every logic, given as the bare flag yices takes.
    let configurations = table(&et(
        &s,
        &[
            "options",
            "enumerate",
            "yices-2.6.5",
            "--max",
            "1",
            "--n",
            "1",
            "--pool",
            pool,
        ],
    ));
    assert_eq!(
        configurations[0][1], "yices-2.6.5+mcsat",
        "{configurations:?}"
    );
    assert_eq!(configurations[0][2], "mcsat=true");
}

#[test]
fn configurations_are_enumerated_curated_first_with_random_access() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    let pool = pool.to_str().unwrap();
    let all = table(&et(
        &s,
        &[
            "options",
            "enumerate",
            "z3-4.16.0",
            "--max",
            "2",
            "--n",
            "1000",
            "--pool",
            pool,
        ],
    ));
    assert_eq!(all.len(), 1000);
    assert_eq!(all[0][1], "z3-4.16.0+newcore");
    assert_eq!(all[0][2], "tactic.default_tactic=smt sat.euf=true");
    let curated: Vec<&str> = all
        .iter()
        .take_while(|r| !r[1].contains("+o"))
        .map(|r| r[1].as_str())
        .collect();
    assert!(curated.contains(&"z3-4.16.0+arith2"), "{curated:?}");
    assert!(
        !curated.contains(&"z3-4.16.0+arith6"),
        "6 is 4.16.0's default"
    );
    // Fewest options first: singles, then pairs; every name distinct.
    let sizes: Vec<usize> = all[curated.len()..]
        .iter()
        .map(|r| r[2].split(' ').count())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]));
    let names: BTreeSet<&str> = all.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(names.len(), all.len());
    // Random access: --start gives the same configurations as the stream.
    let far = table(&et(
        &s,
        &[
            "options",
            "enumerate",
            "z3-4.16.0",
            "--max",
            "2",
            "--start",
            "990",
            "--n",
            "10",
            "--pool",
            pool,
        ],
    ));
    assert_eq!(far, all[990..]);
    let o = et(
        &s,
        &[
            "options",
            "enumerate",
            "z3-4.16.0",
            "--max",
            "9",
            "--pool",
            pool,
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

/// A pool of the fake solver with options (its catalog from a file), releases 0.9 and
/// 1.0, and the real z3.
fn fake_pool(s: &Scratch, catalog: &Path) -> String {
    let z3 = solver("z3-4.16.0");
    let release = |version: &str| {
        let mut fake = fake_release(
            &format!("opts-{version}"),
            "opts",
            version,
            "options.sh",
            &[z3.program(), "model_validate=true"],
        );
        fake.catalog = Some(catalog.to_path_buf());
        fake
    };
    s.pool_file("pool.toml", &[release("0.9"), release("1.0"), z3.clone()])
        .display()
        .to_string()
}

#[test]
fn the_one_faulty_option_is_found_on_its_configuration_only() {
    let s = Scratch::new();
    let catalog = Path::new(&fake_script("options-catalog.tsv")).to_path_buf();
    let pool = fake_pool(&s, &catalog);
    let listed = table(&et(&s, &["options", "list", "opts-1.0", "--pool", &pool]));
    assert_eq!(listed.len(), 30);
    let out = s.join("run");
    run_configurations(
        &s,
        "core",
        50,
        &pool,
        "opts-1.0:single",
        &out,
        &["--jobs", "2"],
    );
    let (_, m) = manifest(&out);
    // Every single-option configuration the catalog enumerates; the log file and the
    // verbosity are left out by et's common rule.
    assert_eq!(m.solvers.len(), 26 + 1 + 2);
    let liar = m
        .solvers
        .iter()
        .find(|s| s.options.as_deref() == Some(&["xor-lies=true".to_string()][..]))
        .unwrap();
    assert_eq!(liar.configuration_of.as_deref(), Some("opts-1.0"));
    assert!(liar.command.contains(&"--xor-lies=true".to_string()));
    for s in &m.solvers {
        // Judged first by the release in its default mode.
        assert_eq!(s.references.as_ref().unwrap()[0], "opts-1.0", "{}", s.name);
    }
    let rows = rows(&out);
    assert_eq!(rows.len(), 50 * m.solvers.len());
    let bugs: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.verdict.is_some_and(|v| v.is_bug()))
        .map(|r| r.solver.as_str())
        .collect();
    assert_eq!(bugs, BTreeSet::from([liar.name.as_str()]));
    let unsound = rows
        .iter()
        .filter(|r| r.solver == liar.name && r.verdict == Some(Verdict::Unsound))
        .count();
    assert!(unsound > 0);
    for r in rows.iter().filter(|r| r.verdict == Some(Verdict::Unsound)) {
        assert_eq!(r.reference, "opts-1.0", "{r:?}");
    }
    // Triaged, the lies are the liar's alone, and its report needs its one option.
    triage(&s, &out, &pool);
    let report = std::fs::read_to_string(out.join("triage/report.md")).unwrap();
    // The run's configurations are counted, not listed, where the runs are named.
    let configurations = m
        .solvers
        .iter()
        .filter(|s| s.configuration_of.is_some())
        .count();
    assert!(configurations > 12, "{configurations}");
    assert!(
        report.contains(&format!(
            "solvers {configurations} option configurations ({configurations} of `opts-1.0`; each named, with its options, in the run's `run.toml`)"
        )),
        "{report}"
    );
    for other in m
        .solvers
        .iter()
        .filter(|s| s.configuration_of.is_some() && s.name != liar.name)
    {
        assert!(!report.contains(&format!("`{}`", other.name)), "{report}");
    }
    assert!(
        report.contains(&format!("found on `{}`", liar.name)),
        "{report}"
    );
    let bugs = std::fs::read_dir(out.join("triage/bugs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect::<Vec<_>>();
    assert!(
        bugs.iter()
            .any(|r| r.contains("the bug needs `xor-lies=true` (the default mode does not show it")),
        "{bugs:?}"
    );
}

#[test]
fn options_the_solver_refuses_are_recorded_and_not_run() {
    let s = Scratch::new();
    let mut text = std::fs::read_to_string(fake_script("options-catalog.tsv")).unwrap();
    text.push_str("bogus\tbool\tfalse\t-\tan option the program does not take\n");
    let catalog = s.join("catalog.tsv");
    std::fs::write(&catalog, text).unwrap();
    let pool = fake_pool(&s, &catalog);
    let out = s.join("run");
    run_configurations(&s, "core", 5, &pool, "opts-1.0:26..30", &out, &[]);
    let (text, m) = manifest(&out);
    assert_eq!(m.refused_configurations.len(), 1, "{text}");
    let refused = &m.refused_configurations[0];
    assert_eq!(refused.options, ["bogus=true"]);
    assert!(
        refused.reason.contains("unknown option bogus"),
        "{}",
        refused.reason
    );
    let rows = rows(&out);
    assert!(rows.iter().all(|r| r.solver != refused.name));
    assert!(rows.iter().all(|r| r.status != Status::SetupError));
    assert_eq!(m.solvers.len(), 3);
}

#[test]
fn an_option_value_refused_once_a_formula_needs_it_is_rejected_not_a_finding() {
    // z3 4.16.0's help lists `smt.string_solver=z3str3` (configuration 3); it takes
    // the value at its command line and gives up with `unknown`, reason "invalid
    // parameter for smt.string_solver", on formulas with strings.
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    let out = s.join("run");
    run_configurations(
        &s,
        "strings",
        30,
        pool.to_str().unwrap(),
        "z3-4.16.0:3..4",
        &out,
        // One job: batches of several formulas, so each session call has the next
        // formula written ahead while its `unknown` waits to be asked for its reason
        // (et's debug build asserts that no call is made across such a formula).
        &["--solvers", "z3-4.16.0", "--jobs", "1"],
    );
    let rows = rows(&out);
    let z3str3: Vec<_> = rows
        .iter()
        .filter(|r| r.solver == "z3-4.16.0+z3str3")
        .collect();
    assert_eq!(z3str3.len(), 30);
    let rejected = z3str3
        .iter()
        .filter(|r| r.status == Status::Rejected)
        .count();
    assert!(rejected > 0, "{z3str3:?}");
    for r in &z3str3 {
        assert_ne!(r.status, Status::Unknown, "{r:?}");
        assert_eq!(r.verdict, None, "{r:?}");
        if r.status == Status::Rejected {
            // The call that asked for the reason, in a process of its own.
            assert_eq!(r.mode, Some(et_core::judging::CallMode::Fresh), "{r:?}");
        }
    }
    // The default mode decides every one of them.
    assert!(rows
        .iter()
        .filter(|r| r.solver == "z3-4.16.0")
        .all(|r| matches!(r.status, Status::Sat | Status::Unsat)));
}

#[test]
fn a_campaign_over_z3s_curated_modes_runs_in_sessions_and_names_them() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0"), solver("cvc5-1.4.2")]);
    let out = s.join("run");
    let configurations = "z3-4.16.0:curated";
    run_configurations(
        &s,
        "ints",
        1000,
        pool.to_str().unwrap(),
        configurations,
        &out,
        &["--jobs", "2"],
    );
    let (_, m) = manifest(&out);
    let names: BTreeSet<String> = m.solvers.iter().map(|s| s.name.clone()).collect();
    assert!(names.len() >= 8, "{names:?}");
    for c in &m.solvers {
        assert!(c.name.starts_with("z3-4.16.0+"), "{}", c.name);
        assert_eq!(c.session, Some(true), "{}", c.name);
        assert!(!c.options.as_ref().unwrap().is_empty());
        assert_eq!(c.references.as_ref().unwrap()[0], "z3-4.16.0");
    }
    assert!(m.reference_solvers.iter().any(|r| r.name == "z3-4.16.0"));
    let rows = rows(&out);
    assert_eq!(rows.len(), 1000 * names.len());
    assert!(rows.iter().all(|r| names.contains(&r.solver)));
    // A finished study resumes to nothing more, and reports name the configurations.
    let o = et(&s, &["run", "--resume", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(common::rows(&out).len(), rows.len());
    let o = et(&s, &["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(stdout(&o).contains("z3-4.16.0+newcore"));
}

#[test]
fn help_has_examples_and_enumerated_lists_only_those() {
    let s = Scratch::new();
    for args in [
        &["options", "--help"][..],
        &["options", "list", "--help"],
        &["options", "enumerate", "--help"],
    ] {
        let o = et(&s, args);
        assert!(stdout(&o).contains("Examples:"), "{args:?}");
    }
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    let args = [
        "options",
        "list",
        "z3-4.16.0",
        "--enumerated",
        "--pool",
        pool.to_str().unwrap(),
    ];
    let rows = table(&et(&s, &args));
    assert!(rows.len() > 300 && rows.iter().all(|r| r[4].starts_with("yes: ")));
}

/// A configuration of two options, one harmless (`tune-01`) and one that injects
/// wrong answers (`xor-lies`): triage reduces the finding to the one option it
/// needs, says the default mode does not show it, and the report's command line has
/// exactly that option.
#[test]
fn triage_names_the_one_option_a_finding_needs() {
    let s = Scratch::new();
    let catalog = Path::new(&fake_script("options-catalog.tsv")).to_path_buf();
    let pool = fake_pool(&s, &catalog);
    let out = s.join("run");
    let o = et(
        &s,
        &[
            "run",
            "-g",
            "core",
            // The first `xor`s are formulas 40 to 47.
            "--start",
            "40",
            "--n",
            "8",
            "--timeout",
            "20",
            "--pool",
            &pool,
            "--solvers",
            "opts-1.0",
            // Configuration 54: `tune-01=true xor-lies=true` (`et options enumerate`).
            "--configurations",
            "opts-1.0:54..55",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let (_, m) = manifest(&out);
    let pair = m
        .solvers
        .iter()
        .find(|s| {
            s.options
                .as_ref()
                .is_some_and(|o| o.len() == 2 && o.contains(&"xor-lies=true".to_string()))
        })
        .expect("a configuration of xor-lies and one more option");
    triage(&s, &out, &pool);
    let bugs = out.join("triage/bugs");
    let report = std::fs::read_dir(&bugs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|r| r.contains(&format!("the configuration `{}`", pair.name)))
        .unwrap_or_else(|| panic!("a report on {} in {}", pair.name, bugs.display()));
    assert!(
        report.contains("the bug needs `xor-lies=true` (the default mode does not show it"),
        "{report}"
    );
    // The title names the option, and the other release is ranged in the same
    // configuration (in its default mode it does not lie).
    let title = report.lines().next().unwrap();
    assert!(title.contains("with `xor-lies=true`"), "{title}");
    let older = format!(
        "| 0.9 (`{}`) | yes |",
        pair.name.replace("opts-1.0", "opts-0.9")
    );
    assert!(report.contains(&older), "{report}");
    let command = report
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.lines().next())
        .unwrap();
    assert!(command.contains("--xor-lies=true"), "{command}");
    let other = pair
        .options
        .as_ref()
        .unwrap()
        .iter()
        .find(|o| *o != "xor-lies=true")
        .unwrap();
    assert!(!command.contains(&format!("--{other}")), "{command}");
}

/// z3's arithmetic solvers (`smt.arith.solver` 2 and 5) act on arithmetic alone: on
/// the Boolean formulas of `core` (QF_UF) they are recorded in run.toml and not run,
/// while the new core, which acts on any formula, runs; on `ints` (QF_NIA) all three
/// run.
#[test]
fn configurations_that_act_only_on_theories_the_logic_lacks_are_not_run() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    let pool = pool.to_str().unwrap();
    let core = s.join("core");
    run_configurations(&s, "core", 2, pool, "z3-4.16.0:0..3", &core, &[]);
    let (text, m) = manifest(&core);
    let left_out: Vec<(&str, &[String], &[String])> = m
        .inapplicable_configurations
        .iter()
        .map(|c| (c.name.as_str(), &c.options[..], &c.acts_only_on[..]))
        .collect();
    let arithmetic = ["arithmetic".to_string()];
    assert_eq!(
        left_out,
        [
            (
                "z3-4.16.0+arith2",
                &["smt.arith.solver=2".to_string()][..],
                &arithmetic[..]
            ),
            (
                "z3-4.16.0+arith5",
                &["smt.arith.solver=5".to_string()][..],
                &arithmetic[..]
            ),
        ],
        "{text}"
    );
    let ran: BTreeSet<String> = rows(&core).into_iter().map(|r| r.solver).collect();
    assert_eq!(ran, BTreeSet::from(["z3-4.16.0+newcore".to_string()]));
    let ints = s.join("ints");
    run_configurations(&s, "ints", 1, pool, "z3-4.16.0:0..3", &ints, &[]);
    let (text, m) = manifest(&ints);
    assert!(m.inapplicable_configurations.is_empty(), "{text}");
    assert_eq!(rows(&ints).len(), 3);
}

/// A configuration that shows what its default mode shows, on the same formulas, adds
/// nothing to triage: the fake solver lies on `xor` formulas in its default mode
/// (`--xor-lies=true` in its pool command), and so does its configuration with a
/// harmless option. Triage leaves the configuration's triggers to the default mode's
/// (no group, no line of `triggers.csv` is the configuration's) and says how many.
#[test]
fn a_configurations_finding_its_default_mode_shows_is_left_to_the_default_mode() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let mut liar = fake_release(
        "opts-1.0",
        "opts",
        "1.0",
        "options.sh",
        &[z3.program(), "model_validate=true", "--xor-lies=true"],
    );
    liar.catalog = Some(Path::new(&fake_script("options-catalog.tsv")).to_path_buf());
    let pool = s
        .pool_file("pool.toml", &[liar, z3.clone()])
        .display()
        .to_string();
    let out = s.join("run");
    // The first `xor`s are formulas 40 to 47; configuration 0 is a harmless option.
    let under_test = ["--solvers", "opts-1.0"];
    run_configurations(&s, "core", 48, &pool, "opts-1.0:0..1", &out, &under_test);
    let (_, m) = manifest(&out);
    let configuration = m
        .solvers
        .iter()
        .find(|s| s.configuration_of.is_some())
        .expect("one configuration");
    let rows = rows(&out);
    let found = |solver: &str| -> BTreeSet<String> {
        rows.iter()
            .filter(|r| r.solver == solver && r.verdict.is_some())
            .map(|r| r.index.clone())
            .collect()
    };
    let shared = found(&configuration.name);
    assert!(!shared.is_empty(), "the configuration lies too");
    // On formulas its default mode lies on too (the default mode's other lies, `sat`
    // on an unsatisfiable `xor`, agree with it: its first judge).
    assert!(shared.is_subset(&found("opts-1.0")), "{shared:?}");
    triage(&s, &out, &pool);
    let report = std::fs::read_to_string(out.join("triage/report.md")).unwrap();
    assert!(
        report.contains(&format!(
            "Left to the default mode: {} triggers of option configurations",
            shared.len()
        )) && report.contains(&format!("`{}` {}", configuration.name, shared.len())),
        "{report}"
    );
    let triggers = std::fs::read_to_string(out.join("triage/triggers.csv")).unwrap();
    assert!(triggers.contains("opts-1.0"), "{triggers}");
    assert!(!triggers.contains(&configuration.name), "{triggers}");
}
