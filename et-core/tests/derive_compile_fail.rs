//! The derive macros refuse bad input at compile time, at the attribute, with the
//! message the interpreted path prints (trybuild; expected output in `tests/ui/*.stderr`).

use std::path::Path;

#[test]
fn bad_grammars_and_attributes_are_compile_errors() {
    // trybuild builds the cases as a crate in <target>/tests/trybuild/et-core, which is
    // then their CARGO_MANIFEST_DIR: put the grammar fixtures where they resolve.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is <target>/tmp");
    let project = target.join("tests/trybuild/et-core/ui");
    std::fs::create_dir_all(&project).unwrap();
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    for entry in std::fs::read_dir(&ui).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pest") {
            std::fs::copy(&path, project.join(path.file_name().unwrap())).unwrap();
        }
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
