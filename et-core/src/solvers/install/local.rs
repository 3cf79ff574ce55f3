//! A solver built locally (a development head, a patched release) added to a pool as it
//! is: its family guessed from the program's name unless given (a family et does not
//! know is run as a generic SMT-LIB solver), its version read from `PROGRAM --version`
//! unless given, its command the program with the family's self-check options, as an
//! installed release gets.

use std::path::Path;
use std::time::Duration;

use super::super::call::{run_call, Input, Limits};
use super::super::family;
use super::super::pool::{absolute, check_name, Pool, SolverConfig};
use super::register::register;
use super::InstallError;

/// What `et solvers add` is told of a local build.
#[derive(Debug, Clone, Default)]
pub struct LocalBuild<'a> {
    /// The program: a path, relative ones taken from the current directory (the pool
    /// records it relative to the pool file's directory if it lies under it, else
    /// absolute).
    pub program: &'a str,
    /// Its family, when its name does not tell: one et knows, or any other name (run
    /// as a generic SMT-LIB solver, [`family::SmtLib`]).
    pub family: Option<&'a str>,
    /// Its version, when `--version` does not tell.
    pub version: Option<&'a str>,
    /// The pool entry's name [default: FAMILY-VERSION].
    pub name: Option<&'a str>,
}

/// Adds `build` to `pool_file` (under the lock of `home`) and returns its entry. A
/// program that does not run, a family or version that cannot be told, a family or
/// solver name that cannot name one, or a name the pool already has is refused
/// ([`InstallError::BadLocal`]); nothing is written then.
pub fn add_local(
    home: &Path,
    pool_file: &Path,
    build: &LocalBuild<'_>,
) -> Result<SolverConfig, InstallError> {
    let bad = |why: String| InstallError::BadLocal {
        program: build.program.to_string(),
        why,
    };
    if !Path::new(build.program).is_file() {
        return Err(bad("no such file".into()));
    }
    // A family et does not know (`--family mathsat`) is recorded as given and run as a
    // generic SMT-LIB solver, as a pool entry naming it is; a known one by et's name.
    let (family_name, family) = match build.family {
        Some(name) => match family::find(name) {
            Some(known) => (known.name().to_string(), known),
            None => {
                check_family(name).map_err(bad)?;
                (name.to_string(), family::find_or_generic(name))
            }
        },
        None => {
            let known = family::guess(build.program)
                .ok_or_else(|| bad("its name tells no family: give --family".into()))?;
            (known.name().to_string(), known)
        }
    };
    let version = match build.version {
        Some(v) => v.to_string(),
        None => version_of(build.program)
            .ok_or_else(|| bad("`--version` printed no version number: give --version".into()))?,
    };
    let name = build
        .name
        .map_or_else(|| format!("{family_name}-{version}"), str::to_string);
    check_name(&name).map_err(bad)?;
    if pool_file.exists() && Pool::load(pool_file)?.get(&name).is_some() {
        return Err(bad(format!(
            "{} already has a solver named `{name}`: give another with --name",
            pool_file.display()
        )));
    }
    // Absolute, as the pool file reads it back: `./z3` is the current directory's,
    // a bare `z3` a file here and not a command looked up in PATH.
    let program = absolute(Path::new(build.program));
    // As an installed release gets it (`SolverConfig::installed`), but under the family
    // name given: the generic family's own name would lose it.
    let command = std::iter::once(&*program.to_string_lossy())
        .chain(family.self_check_options().iter().copied())
        .map(str::to_string)
        .collect();
    let solver = SolverConfig::new(&name, &family_name, &version, command);
    register(home, pool_file, &[&solver])?;
    Ok(solver)
}

/// Checks a family name et does not know: it is listed in `--solvers` and `reference`
/// (comma-separated, as solver names are) and starts the default solver name, so it
/// holds no whitespace, comma, control character or path separator.
fn check_family(name: &str) -> Result<(), String> {
    let bad = name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, ',' | '/' | '\\'));
    if bad {
        Err(format!(
            "family `{}` is not a name: a family is a word without whitespace, commas or \
             `/` (et knows {}; any other is run as a generic SMT-LIB solver)",
            name.escape_debug(),
            known_families()
        ))
    } else {
        Ok(())
    }
}

/// The families et knows, for messages.
fn known_families() -> String {
    family::FAMILIES
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first `X.Y` or `X.Y.Z` that `PROGRAM --version` prints (run as every call is,
/// under a short limit).
fn version_of(program: &str) -> Option<String> {
    let command = [program.to_string(), "--version".to_string()];
    let input = Input::Stdin(b"");
    let outcome = run_call(
        &command,
        input,
        &Limits::with_timeout(Duration::from_secs(10)),
    )
    .ok()?;
    let text = format!("{}\n{}", outcome.stdout_text(), outcome.stderr_text());
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|w| w.trim_matches('.'))
        .find(|w| w.split('.').count() >= 2 && w.split('.').all(|p| !p.is_empty()))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_is_not_there_or_tells_nothing_is_refused() {
        let home = tempfile::tempdir().unwrap();
        let pool = home.path().join("pool.toml");
        let missing = LocalBuild {
            program: "/nonexistent/yices-smt2",
            ..LocalBuild::default()
        };
        let e = add_local(home.path(), &pool, &missing).unwrap_err();
        assert!(e.to_string().contains("no such file"), "{e}");
        // A program that prints no version, whose name tells no family.
        let program = home.path().join("silent");
        std::fs::write(&program, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(
            &program,
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let program = program.to_string_lossy().into_owned();
        let e = add_local(
            home.path(),
            &pool,
            &LocalBuild {
                program: &program,
                ..LocalBuild::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("give --family"), "{e}");
        let silent = LocalBuild {
            program: &program,
            family: Some("z3"),
            ..LocalBuild::default()
        };
        let e = add_local(home.path(), &pool, &silent).unwrap_err();
        assert!(e.to_string().contains("give --version"), "{e}");
        assert!(!pool.exists(), "nothing written");
        let given = LocalBuild {
            version: Some("9.9.9"),
            ..silent
        };
        let added = add_local(home.path(), &pool, &given).unwrap();
        assert_eq!(
            (added.name.as_str(), added.version.as_str()),
            ("z3-9.9.9", "9.9.9")
        );
        let e = add_local(home.path(), &pool, &given).unwrap_err();
        assert!(e.to_string().contains("already has"), "{e}");
    }

    #[test]
    fn a_family_et_does_not_know_is_added_as_given() {
        let home = tempfile::tempdir().unwrap();
        let pool = home.path().join("pool.toml");
        let program = home.path().join("mathsat");
        std::fs::write(&program, "#!/bin/sh\nexit 0\n").unwrap();
        let program = program.to_string_lossy().into_owned();
        let build = LocalBuild {
            program: &program,
            family: Some("mathsat"),
            version: Some("5.6.10"),
            ..LocalBuild::default()
        };
        let added = add_local(home.path(), &pool, &build).unwrap();
        assert_eq!(added.name, "mathsat-5.6.10");
        assert_eq!(added.family, "mathsat");
        // et knows no self-checks of it, and not how to ask it for models.
        assert_eq!(added.command, std::slice::from_ref(&program));
        assert!(!added.models);
        assert_eq!(Pool::load(&pool).unwrap().solvers, [added]);
        // A known family given in other letters is recorded by et's name for it.
        let upper = LocalBuild {
            family: Some("Z3"),
            name: Some("z3-head"),
            ..build.clone()
        };
        assert_eq!(add_local(home.path(), &pool, &upper).unwrap().family, "z3");
        for (family, name) in [("math sat", None), ("", None), ("a,b", None)]
            .into_iter()
            .chain([("mathsat", Some("mathsat head"))])
        {
            let bad = LocalBuild {
                family: Some(family),
                name,
                ..build.clone()
            };
            let e = add_local(home.path(), &pool, &bad).unwrap_err();
            assert!(
                matches!(e, InstallError::BadLocal { .. }),
                "{family:?}: {e}"
            );
        }
        assert_eq!(
            Pool::load(&pool).unwrap().solvers.len(),
            2,
            "nothing more written"
        );
    }
}
