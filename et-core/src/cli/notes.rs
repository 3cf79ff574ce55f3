//! Notes on stderr that several commands print: how solver calls are supervised here,
//! and what is installed when a command needs solvers and there is no pool yet.

use et_core::solvers::call::Supervisor;
use et_core::solvers::install::{Chosen, DefaultPoolNotes, Installed, VersionReq};

/// Says once on stderr when solver calls cannot run in cgroups here, and what is lost.
pub fn note_supervision() {
    if let Some(why) = Supervisor::global().fallback_reason() {
        eprintln!(
            "et: cgroups are not usable here ({why}); solver calls run in process groups \
             instead: a solver's child that calls setsid can escape the kill, --memory \
             limits each process's address space, and CPU time and peak memory count only \
             the descendants a solver waited for"
        );
    }
}

/// What commands say on stderr while the default pool is installed because there is
/// no pool yet.
pub const DEFAULT_POOL_NOTES: DefaultPoolNotes = DefaultPoolNotes {
    installing: |path, specs| {
        eprintln!(
            "et: no solver pool yet ({} does not exist); installing the default pool: {}",
            path.display(),
            specs.join(" ")
        )
    },
    chosen: say_chosen,
    installed: say_installed,
    // Each failure named with its reason: the commands go on with the solvers that did
    // install, and the user must know which is missing and why.
    done: |report| {
        eprintln!("et: {}", report.summary());
        for (name, e) in &report.failed {
            eprintln!("et: warning: could not install {name}: {e}");
        }
    },
};

/// One line on stderr per release chosen for a spec that named no exact version, before
/// it is downloaded: the spec did not say which release the pool gets, so et does.
pub fn say_chosen(chosen: &Chosen<'_>) {
    let (spec, which) = match chosen.req {
        VersionReq::NewestWith(_) => (
            format!("{}@{}", chosen.family, chosen.req),
            format!("newest {} release", chosen.req),
        ),
        _ => (chosen.family.to_string(), "newest release".to_string()),
    };
    eprintln!(
        "et: {spec}: chose {}-{}, the {which} on PyPI that et can use",
        chosen.family, chosen.version
    );
}

/// One line of progress on stderr per solver installed, as each finishes.
pub fn say_installed(solver: &Installed<'_>) {
    eprintln!(
        "et: installed {} from {} in {:.1} s",
        solver.name,
        solver.wheel,
        solver.took.as_secs_f64()
    );
}
