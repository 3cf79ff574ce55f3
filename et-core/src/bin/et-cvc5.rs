//! `et-cvc5`: a cvc5 command-line driver over the C API of the libraries in a PyPI
//! `cvc5` wheel (cvc5 1.2.0 and later).
//!
//! The wheels ship `libcvc5` and `libcvc5parser` but no `cvc5` binary, and no C headers;
//! the dozen entry points used here are declared by hand. `et solvers install` copies
//! this program to `<solver dir>/bin/cvc5` next to `<solver dir>/lib/`, so a pool entry
//! runs it exactly like the real binary: `cvc5 [OPTIONS] [FILE]`.
//!
//! It mimics the cvc5 driver where a campaign can see the difference: command outputs
//! go to stdout as they are produced (standard input is executed command by command as
//! it arrives, so a long-lived process can be fed one formula after another and
//! answers each before the next arrives — et's sessions), a parse or command error prints
//! `(error "...")` and exits 1, `--tlimit=MS` prints `cvc5 interrupted by timeout.` on
//! stderr and aborts (as cvc5 1.0.3's driver does), options are `--name=value`,
//! `--name` (true), `--no-name` (false), `-q`, `-v`. The library itself is the real one,
//! so answers, models and self-checks are cvc5's own.
//!
//! This file stays free of `et_core` so that the program starts in a few milliseconds.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// `Cvc5InputLanguage::CVC5_INPUT_LANGUAGE_SMT_LIB_2_6`: first enumerator of the C enum.
const SMT_LIB_2_6: c_int = 0;

type Ptr = *mut c_void;

/// The C entry points the driver needs, resolved from the loaded libraries.
struct Api {
    term_manager_new: unsafe extern "C" fn() -> Ptr,
    new: unsafe extern "C" fn(Ptr) -> Ptr,
    set_option: unsafe extern "C" fn(Ptr, *const c_char, *const c_char),
    get_version: unsafe extern "C" fn(Ptr) -> *const c_char,
    parser_new: unsafe extern "C" fn(Ptr, Ptr) -> Ptr,
    parser_get_sm: unsafe extern "C" fn(Ptr) -> Ptr,
    parser_set_file_input: unsafe extern "C" fn(Ptr, c_int, *const c_char),
    parser_set_str_input: unsafe extern "C" fn(Ptr, c_int, *const c_char, *const c_char),
    parser_next_command: unsafe extern "C" fn(Ptr, *mut *const c_char) -> Ptr,
    cmd_invoke: unsafe extern "C" fn(Ptr, Ptr, Ptr) -> *const c_char,
    cmd_get_name: unsafe extern "C" fn(Ptr) -> *const c_char,
    get_info: unsafe extern "C" fn(Ptr, *const c_char) -> *const c_char,
    get_model: unsafe extern "C" fn(Ptr, usize, *const Ptr, usize, *const Ptr) -> *const c_char,
    sm_get_declared_sorts: unsafe extern "C" fn(Ptr, *mut usize) -> *const Ptr,
    sm_get_declared_terms: unsafe extern "C" fn(Ptr, *mut usize) -> *const Ptr,
    /// Present from cvc5 1.4 on: earlier versions print the error and exit themselves.
    has_error: Option<unsafe extern "C" fn() -> bool>,
    get_error_message: Option<unsafe extern "C" fn() -> *const c_char>,
    /// `cvc5_get_option_names`, `cvc5_get_option_info` and `cvc5_option_info_to_string`,
    /// for `--et-list-options`.
    option_names: Option<unsafe extern "C" fn(Ptr, *mut usize) -> *const *const c_char>,
    option_info: Option<unsafe extern "C" fn(Ptr, *const c_char, *mut c_void)>,
    option_info_to_string: Option<unsafe extern "C" fn(*const c_void) -> *const c_char>,
    /// `cvc5_modes_option_category_to_string`, from cvc5 1.3.1 on (with the struct's
    /// `category` field): the library's own name of a `Cvc5OptionCategory` value.
    option_category_to_string: Option<unsafe extern "C" fn(c_int) -> *const c_char>,
}

/// Resolves `name` in `handle` (and the libraries it pulled in) as a function pointer.
///
/// # Safety
/// `F` must be the `extern "C"` function-pointer type of the symbol.
unsafe fn symbol<F: Copy>(handle: Ptr, name: &str) -> Option<F> {
    let cname = CString::new(name).ok()?;
    let ptr = libc::dlsym(handle, cname.as_ptr());
    if ptr.is_null() {
        None
    } else {
        Some(std::mem::transmute_copy::<Ptr, F>(&ptr))
    }
}

impl Api {
    /// Loads `libcvc5parser` from `lib_dir`; its RPATH (`$ORIGIN`) brings `libcvc5` along.
    fn load(lib_dir: &Path) -> Result<Api, String> {
        let parser_lib = find_library(lib_dir, "libcvc5parser")?;
        let cpath = CString::new(parser_lib.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("bad library path {}", parser_lib.display()))?;
        // SAFETY: dlopen/dlsym are called with valid C strings; every symbol is cast to
        // the prototype documented in cvc5's include/cvc5/c/cvc5.h and cvc5_parser.h.
        unsafe {
            let handle = libc::dlopen(cpath.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL);
            if handle.is_null() {
                let why = CStr::from_ptr(libc::dlerror())
                    .to_string_lossy()
                    .into_owned();
                return Err(format!("cannot load {}: {why}", parser_lib.display()));
            }
            macro_rules! need {
                ($name:literal) => {
                    symbol(handle, $name).ok_or_else(|| {
                        format!(
                            "{} has no C API function `{}` (the C API appeared in cvc5 1.2.0)",
                            parser_lib.display(),
                            $name
                        )
                    })?
                };
            }
            Ok(Api {
                term_manager_new: need!("cvc5_term_manager_new"),
                new: need!("cvc5_new"),
                set_option: need!("cvc5_set_option"),
                get_version: need!("cvc5_get_version"),
                parser_new: need!("cvc5_parser_new"),
                parser_get_sm: need!("cvc5_parser_get_sm"),
                parser_set_file_input: need!("cvc5_parser_set_file_input"),
                parser_set_str_input: need!("cvc5_parser_set_str_input"),
                parser_next_command: need!("cvc5_parser_next_command"),
                cmd_invoke: need!("cvc5_cmd_invoke"),
                cmd_get_name: need!("cvc5_cmd_get_name"),
                get_info: need!("cvc5_get_info"),
                get_model: need!("cvc5_get_model"),
                sm_get_declared_sorts: need!("cvc5_sm_get_declared_sorts"),
                sm_get_declared_terms: need!("cvc5_sm_get_declared_terms"),
                has_error: symbol(handle, "cvc5_has_error"),
                get_error_message: symbol(handle, "cvc5_get_error_message"),
                option_names: symbol(handle, "cvc5_get_option_names"),
                option_info: symbol(handle, "cvc5_get_option_info"),
                option_info_to_string: symbol(handle, "cvc5_option_info_to_string"),
                option_category_to_string: symbol(handle, "cvc5_modes_option_category_to_string"),
            })
        }
    }

    /// The error recorded by the last C API call (cvc5 ≥ 1.4), if any.
    fn last_error(&self) -> Option<String> {
        let (has, msg) = (self.has_error?, self.get_error_message?);
        // SAFETY: both take no arguments and return a flag / a NUL-terminated string.
        unsafe {
            if has() {
                Some(cstr(msg()))
            } else {
                None
            }
        }
    }
}

/// Finds `<stem>.so*` or a wheel-mangled `<stem>-<hash>.so*` in `dir`.
fn find_library(dir: &Path, stem: &str) -> Result<PathBuf, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.contains(".so")
                && (name.starts_with(&format!("{stem}.")) || name.starts_with(&format!("{stem}-")))
        })
        .collect();
    found.sort();
    found
        .into_iter()
        .next()
        .ok_or_else(|| format!("no {stem}*.so* in {}", dir.display()))
}

/// Copies a C string owned by cvc5 (valid until the next call) into Rust.
///
/// # Safety
/// `p` is null or a valid NUL-terminated string.
unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// What the command line asked for.
struct Invocation {
    /// (cvc5 option, value, the argument it came from).
    options: Vec<(String, String, String)>,
    tlimit_ms: Option<u64>,
    input: Option<String>,
    lib_dir: Option<PathBuf>,
    show_version: bool,
    /// `--et-list-options`: print every option in et's catalog line format and exit.
    list_options: bool,
    /// `--dump-models`: print the model after every `sat` (and `unknown` for
    /// incompleteness) answer, as the cvc5 binary's driver does.
    dump_models: bool,
}

const USAGE: &str = "usage: cvc5 [OPTIONS] [FILE]   (et-cvc5: cvc5 driver over the wheel's C API)
  --name=value | --name | --no-name   set a cvc5 option (see cvc5 --help)
  --tlimit=MS                         wall-clock limit; prints `cvc5 interrupted by timeout.`, aborts
  -q / -v                             quieter / more verbose
  --dump-models                       print the model after every sat (or incomplete unknown) answer
  --et-lib-dir=DIR                    directory holding libcvc5parser*.so (default: ../lib)
  --et-list-options                   print every cvc5 option (name, type, default, values) and exit
  FILE                                SMT-LIB 2.6 input (default: standard input)";

fn parse_args(args: &[String]) -> Result<Invocation, String> {
    let mut inv = Invocation {
        options: Vec::new(),
        tlimit_ms: None,
        input: None,
        lib_dir: None,
        show_version: false,
        list_options: false,
        dump_models: false,
    };
    for arg in args {
        if arg == "-q" || arg == "--quiet" {
            inv.options
                .push(("quiet".into(), "true".into(), arg.clone()));
        } else if arg == "-v" || arg == "--verbose" {
            inv.options
                .push(("verbose".into(), "true".into(), arg.clone()));
        } else if arg == "-V" || arg == "--version" {
            inv.show_version = true;
        } else if arg == "-h" || arg == "--help" {
            return Err(USAGE.into());
        } else if let Some(opt) = arg.strip_prefix("--") {
            let (name, value) = match opt.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => match opt.strip_prefix("no-") {
                    Some(n) => (n.to_string(), "false".to_string()),
                    None => (opt.to_string(), "true".to_string()),
                },
            };
            match name.as_str() {
                "et-lib-dir" => inv.lib_dir = Some(PathBuf::from(value)),
                "et-list-options" => inv.list_options = true,
                // The binary's driver, not the library, prints the model: so does this one.
                "dump-models" => {
                    inv.dump_models = match value.as_str() {
                        "true" | "yes" | "1" => true,
                        "false" | "no" | "0" => false,
                        _ => {
                            return Err(format!(
                        "Error in option parsing: --dump-models expects a Boolean, got `{value}'"
                    ))
                        }
                    }
                }
                "tlimit" => {
                    inv.tlimit_ms = Some(value.parse().map_err(|_| {
                        format!(
                            "Error in option parsing: --tlimit expects milliseconds, got `{value}'"
                        )
                    })?)
                }
                "lang" | "input-language" | "output-lang" | "output-language"
                    if value.starts_with("smt") => {}
                "lang" | "input-language" => {
                    return Err(format!(
                        "Error in option parsing: this runner reads SMT-LIB only, not `{value}'"
                    ))
                }
                _ => inv.options.push((name, value, arg.clone())),
            }
        } else if arg.starts_with('-') && arg != "-" {
            return Err(format!(
                "Error in option parsing: can't understand option `{arg}'"
            ));
        } else if inv.input.is_some() {
            return Err(format!(
                "Error in option parsing: too many input files (`{arg}')"
            ));
        } else {
            inv.input = Some(arg.clone());
        }
    }
    Ok(inv)
}

/// Prints `(error "msg")` the way the cvc5 binary does, on stdout.
fn print_error(out: &mut impl Write, msg: &str) {
    let _ = writeln!(out, "(error \"{}\")", msg.trim_end());
    let _ = out.flush();
}

/// Says to et, which looks for it in a copy of this program, that the copy executes
/// standard input as it arrives (et's sessions need it; older copies read all input
/// first). Change it when what sessions rely on changes.
const SESSION_MARK: &str = include_str!("../solvers/install/packaging/cvc5/session-mark.txt");

fn main() -> ExitCode {
    // Keeps the mark's bytes in the program.
    std::hint::black_box(SESSION_MARK);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::stdout().lock();
    let inv = match parse_args(&args) {
        Ok(inv) => inv,
        Err(msg) if msg == USAGE => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            print_error(&mut out, &msg);
            return ExitCode::FAILURE;
        }
    };
    // As in cvc5, a limit of 0 means no limit.
    if let Some(ms) = inv.tlimit_ms.filter(|&ms| ms > 0) {
        // The real driver arms a timer that prints this line and aborts; do the same so
        // that classifiers see one behaviour for every cvc5.
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            eprintln!("cvc5 interrupted by timeout.");
            std::process::abort();
        });
    }
    let lib_dir = inv.lib_dir.clone().unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent()?.parent().map(|d| d.join("lib")))
            .unwrap_or_else(|| PathBuf::from("lib"))
    });
    let api = match Api::load(&lib_dir) {
        Ok(api) => api,
        Err(msg) => {
            eprintln!("et-cvc5: {msg}");
            return ExitCode::from(2);
        }
    };
    run(&api, &inv, &mut out)
}

/// Feeds every command of the input to the solver, printing outputs as they come.
fn run(api: &Api, inv: &Invocation, out: &mut impl Write) -> ExitCode {
    // SAFETY: every pointer passed below was returned by the same library and is used
    // only while the solver lives (the process exits right after).
    unsafe {
        let tm = (api.term_manager_new)();
        let solver = (api.new)(tm);
        if inv.show_version {
            let _ = writeln!(
                out,
                "This is cvc5 version {} [et-cvc5 runner over the C API]",
                cstr((api.get_version)(solver))
            );
            return ExitCode::SUCCESS;
        }
        if inv.list_options {
            return list_options(api, solver, out);
        }
        if let Err(code) = set_options(api, solver, &inv.options, out) {
            return code;
        }
        let parser = (api.parser_new)(solver, std::ptr::null_mut());
        let sm = (api.parser_get_sm)(parser);
        let source = inv.input.as_deref().unwrap_or("<stdin>");
        match inv.input.as_deref() {
            Some(path) if path != "-" => {
                if std::fs::metadata(path).is_err() {
                    print_error(out, &format!("Couldn't open file: {path}"));
                    return ExitCode::FAILURE;
                }
                // Kept alive until the end: the parser may keep pointers into it.
                let file = c(path);
                (api.parser_set_file_input)(parser, SMT_LIB_2_6, file.as_ptr());
                if let Some(err) = api.last_error() {
                    print_error(out, &err);
                    return ExitCode::FAILURE;
                }
                match execute(api, parser, solver, sm, source, inv, out) {
                    Next::More => ExitCode::SUCCESS,
                    Next::Stop(code) => code,
                }
            }
            _ => stream_stdin(api, parser, solver, sm, inv, out),
        }
    }
}

/// What to do after the commands parsed so far were executed.
enum Next {
    /// Read on: the parser has no more commands until more input is appended.
    More,
    /// The run is over (`(exit)`, an error): exit with this code.
    Stop(ExitCode),
}

/// Executes the commands the parser has, writing each output to `out` as it is
/// produced, until the parser has none left. When the output leaves the process is
/// `out`'s business: a file's commands write through a line-buffered stdout (each
/// output as it is produced, so a crash loses none); standard input's are flushed
/// before the driver waits for more input ([`stream_stdin`]).
///
/// # Safety
/// `parser`, `solver` and `sm` come from `api` and are alive.
unsafe fn execute(
    api: &Api,
    parser: Ptr,
    solver: Ptr,
    sm: Ptr,
    source: &str,
    inv: &Invocation,
    out: &mut impl Write,
) -> Next {
    loop {
        let mut err: *const c_char = std::ptr::null();
        let cmd = (api.parser_next_command)(parser, &mut err);
        if !err.is_null() {
            // The binary says `Parse Error: FILE:LINE.COL: msg`; the C API drops the
            // position, so keep the rest of that shape for classifiers.
            print_error(out, &format!("Parse Error: {source}: {}", cstr(err)));
            return Next::Stop(ExitCode::FAILURE);
        }
        if let Some(err) = api.last_error() {
            print_error(out, &err);
            return Next::Stop(ExitCode::FAILURE);
        }
        if cmd.is_null() {
            return Next::More;
        }
        let name = cstr((api.cmd_get_name)(cmd));
        let text = cstr((api.cmd_invoke)(cmd, solver, sm));
        if let Some(err) = api.last_error() {
            print_error(out, &err);
            return Next::Stop(ExitCode::FAILURE);
        }
        let _ = out.write_all(text.as_bytes());
        if text.starts_with("(error") {
            return Next::Stop(ExitCode::FAILURE);
        }
        if inv.dump_models && name.starts_with("check-sat") && model_follows(api, solver, &text) {
            let model = model(api, solver, sm);
            if let Some(err) = api.last_error() {
                print_error(out, &err);
                return Next::Stop(ExitCode::FAILURE);
            }
            let _ = out.write_all(model.as_bytes());
        }
        if name == "exit" {
            return Next::Stop(ExitCode::SUCCESS);
        }
        if name == "reset" {
            // Through the C API `(reset)` sets every option back to its default; the
            // cvc5 binary keeps the command line's (`--produce-models`, the
            // self-checks), and so does this driver.
            if let Err(code) = set_options(api, solver, &inv.options, out) {
                return Next::Stop(code);
            }
        }
    }
}

/// Whether `--dump-models` prints a model after a check's output `answer`: after `sat`,
/// and after `unknown` when the reason is incompleteness (the cvc5 binary's rule).
///
/// # Safety
/// `solver` comes from `api` and is alive.
unsafe fn model_follows(api: &Api, solver: Ptr, answer: &str) -> bool {
    match answer.trim_end() {
        "sat" => true,
        // cvc5 1.4 prints the reason along: `unknown (INCOMPLETE)`.
        a if a == "unknown" || a.starts_with("unknown (") => {
            let flag = c("reason-unknown");
            cstr((api.get_info)(solver, flag.as_ptr())).contains("incomplete")
        }
        _ => false,
    }
}

/// The model as `(get-model)` prints it: the values of the declared sorts and
/// constants the symbol manager knows.
///
/// # Safety
/// `solver` and `sm` come from `api` and are alive.
unsafe fn model(api: &Api, solver: Ptr, sm: Ptr) -> String {
    let (mut nsorts, mut nterms) = (0usize, 0usize);
    let sorts = (api.sm_get_declared_sorts)(sm, &mut nsorts);
    let terms = (api.sm_get_declared_terms)(sm, &mut nterms);
    // The C API refuses a null array even when it is empty.
    let nonnull = |p: *const Ptr| {
        if p.is_null() {
            std::ptr::NonNull::dangling().as_ptr()
        } else {
            p
        }
    };
    cstr((api.get_model)(
        solver,
        nsorts,
        nonnull(sorts),
        nterms,
        nonnull(terms),
    ))
}

/// Prints every option of `solver` in et's catalog line format
/// (`NAME\tTYPE\tDEFAULT\tVALUES\tNOTE[\tCATEGORY]`, see
/// `et_core::solvers::family::catalog`). Type, default and values come from the text
/// of `cvc5_option_info_to_string`, `OptionInfo{ NAME[, ALIAS...] | TYPE | VALUE |
/// default DEFAULT [| MIN <= x <= MAX] [| modes: A, B] }`; the category from the
/// `Cvc5OptionInfo` struct itself, read in the layout of the library's release
/// ([`InfoLayout`]) and checked against what the library wrote. When that layout
/// cannot be trusted (a release whose header et has not read, or a check failing for
/// any option) no line has a category and stderr says why: no category rather than a
/// wrong one.
///
/// # Safety
/// `solver` is a live solver of the library `api` was loaded from.
unsafe fn list_options(api: &Api, solver: Ptr, out: &mut impl Write) -> ExitCode {
    let (Some(names), Some(info), Some(text)) =
        (api.option_names, api.option_info, api.option_info_to_string)
    else {
        eprintln!("et-cvc5: this libcvc5 has no option information in its C API");
        return ExitCode::FAILURE;
    };
    let version = cstr((api.get_version)(solver));
    let layout = InfoLayout::for_version(&version);
    // Why the categories cannot be trusted, once something says so.
    let mut untrusted = match layout {
        Some(layout) => layout
            .check_library(api.option_category_to_string.is_some())
            .err(),
        None => Some(format!(
            "et has not read the Cvc5OptionInfo layout of cvc5 {version}"
        )),
    };
    let mut count = 0usize;
    let list = names(solver, &mut count);
    let mut lines = Vec::with_capacity(count);
    for i in 0..count {
        let name = CStr::from_ptr(*list.add(i));
        let mut room = Room::unwritten();
        info(solver, name.as_ptr(), room.as_mut_ptr());
        let described = cstr(text(room.as_ptr()));
        let category = match layout.filter(|_| untrusted.is_none()) {
            Some(layout) => {
                match layout.category(&room, name, &described, api.option_category_to_string) {
                    Ok(category) => Some(category),
                    Err(why) => {
                        untrusted = Some(format!("option `{}`: {why}", name.to_string_lossy()));
                        None
                    }
                }
            }
            None => None,
        };
        lines.push((name.to_string_lossy().into_owned(), described, category));
    }
    if let Some(why) = &untrusted {
        eprintln!("et-cvc5: the options are listed without their categories: {why}");
    }
    let _ = writeln!(out, "# cvc5 {version} options");
    for (name, described, category) in &lines {
        let category = category.filter(|_| untrusted.is_none());
        let _ = writeln!(out, "{}", option_line(name, described, category));
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

/// The words of the type in `cvc5_option_info_to_string`'s text (`OptionInfo{ NAME |
/// TYPE | ...`), in the order of the `Cvc5OptionInfoKind` enumerators (`VOID`, `BOOL`,
/// `STR`, `INT64`, `UINT64`, `DOUBLE`, `MODES`; the same from 1.2.0 on).
const KIND_WORDS: [&str; 7] = [
    "void", "bool", "string", "int64_t", "uint64_t", "double", "mode",
];

/// The fields of cvc5's description of an option (`OptionInfo{ NAME | TYPE | ... }`).
fn described_fields(described: &str) -> Vec<&str> {
    let body = described
        .trim()
        .trim_start_matches("OptionInfo{")
        .trim_end_matches('}')
        .trim();
    body.split(" | ").map(str::trim).collect()
}

/// One option in et's catalog line format from cvc5's description of it, and its
/// category when known (a sixth field; none, five fields, when not).
fn option_line(name: &str, described: &str, category: Option<Category>) -> String {
    let fields = described_fields(described);
    let kind = match fields.get(1).copied().unwrap_or("") {
        "bool" => "bool",
        "int64_t" => "int",
        "uint64_t" => "uint",
        "double" => "real",
        "mode" => "enum",
        _ => "text",
    };
    let default = fields
        .iter()
        .find_map(|f| f.strip_prefix("default "))
        .map(|d| d.trim_matches('"'))
        .filter(|d| !d.is_empty())
        .unwrap_or("-");
    let mut values = "-".to_string();
    for f in &fields[fields.len().min(2)..] {
        if let Some(modes) = f.strip_prefix("modes: ") {
            values = modes.split(", ").collect::<Vec<_>>().join("|");
        } else if f.contains("<= x") || f.contains("x <=") {
            let min = f.split_once(" <= x").map_or("", |(m, _)| m.trim());
            let max = f.split_once("x <= ").map_or("", |(_, m)| m.trim());
            values = format!("{min}..{max}");
        }
    }
    let note = if fields.get(1).is_some_and(|t| t.starts_with("void")) {
        "takes no value"
    } else {
        ""
    };
    match category {
        Some(category) => format!(
            "{name}\t{kind}\t{default}\t{values}\t{note}\t{}",
            category.label()
        ),
        None => format!("{name}\t{kind}\t{default}\t{values}\t{note}"),
    }
}

/// How cvc5 ranks an option for its users (the `category` of its options files). The
/// labels are those of `et_core::solvers::family::catalog::OptionCategory`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Category {
    Common,
    Regular,
    Expert,
    Undocumented,
    /// Neither expert nor regular, in a release whose struct says no more
    /// (`is_expert` and `is_regular`, before 1.3.1).
    CommonOrUndocumented,
}

impl Category {
    /// Its word in the catalog line format; `common`, `regular`, `expert` and
    /// `undocumented` are also cvc5's own names (`cvc5_modes_option_category_to_string`).
    fn label(self) -> &'static str {
        match self {
            Category::Common => "common",
            Category::Regular => "regular",
            Category::Expert => "expert",
            Category::Undocumented => "undocumented",
            Category::CommonOrUndocumented => "common-or-undocumented",
        }
    }
}

/// The `Cvc5OptionCategory` enumerators in the order include/cvc5/cvc5_types.h
/// declares them (1.3.1 to the development head): `REGULAR = 0`, `EXPERT`, `COMMON`,
/// `UNDOCUMENTED`.
const CATEGORY_ORDER: [Category; 4] = [
    Category::Regular,
    Category::Expert,
    Category::Common,
    Category::Undocumented,
];

/// `Cvc5OptionInfo` as cvc5's include/cvc5/c/cvc5.h declares it, field for field, in
/// each layout its releases have had. C `bool` is `u8` and a C enum `c_int` here, so
/// that whatever bytes the library wrote read as a value; the fields after the
/// category are declared for the layout's sake only.
#[allow(dead_code)]
mod header {
    use std::ffi::{c_char, c_int, c_void};

    #[repr(C)]
    pub struct BoolInfo {
        pub dflt: u8,
        pub cur: u8,
    }

    #[repr(C)]
    pub struct StringInfo {
        pub dflt: *const c_char,
        pub cur: *const c_char,
    }

    /// `IntInfo`, `UIntInfo` and `DoubleInfo`: `T` is `int64_t`, `uint64_t`, `double`.
    #[repr(C)]
    pub struct NumberInfo<T> {
        pub dflt: T,
        pub cur: T,
        pub min: T,
        pub max: T,
        pub has_min: u8,
        pub has_max: u8,
    }

    #[repr(C)]
    pub struct ModeInfo {
        pub dflt: *const c_char,
        pub cur: *const c_char,
        pub num_modes: usize,
        pub modes: *const *const c_char,
    }

    /// cvc5 1.2.0 and 1.2.1 (tags `cvc5-1.2.0`, `cvc5-1.2.1`).
    #[repr(C)]
    pub struct V1_2 {
        pub kind: c_int,
        pub name: *const c_char,
        pub num_aliases: usize,
        pub aliases: *const *const c_char,
        pub is_set_by_user: u8,
        pub is_expert: u8,
        pub is_regular: u8,
        pub info_bool: BoolInfo,
        pub info_str: StringInfo,
        pub info_int: NumberInfo<i64>,
        pub info_uint: NumberInfo<u64>,
        pub info_double: NumberInfo<f64>,
        pub info_mode: ModeInfo,
        pub d_cpp_info: *mut c_void,
    }

    /// cvc5 1.3.0: `num_no_supports` and `no_supports` after the aliases.
    #[repr(C)]
    pub struct V1_3_0 {
        pub kind: c_int,
        pub name: *const c_char,
        pub num_aliases: usize,
        pub aliases: *const *const c_char,
        pub num_no_supports: usize,
        pub no_supports: *const *const c_char,
        pub is_set_by_user: u8,
        pub is_expert: u8,
        pub is_regular: u8,
        pub info_bool: BoolInfo,
        pub info_str: StringInfo,
        pub info_int: NumberInfo<i64>,
        pub info_uint: NumberInfo<u64>,
        pub info_double: NumberInfo<f64>,
        pub info_mode: ModeInfo,
        pub d_cpp_info: *mut c_void,
    }

    /// cvc5 1.3.1 to 1.3.4 (their tags) and the development head after them (August
    /// 2026, which has the C API's error capture, `cvc5_has_error`, of the 1.4
    /// releases): a `Cvc5OptionCategory category` after `is_expert` and `is_regular`,
    /// which are deprecated and no longer filled (left 0).
    #[repr(C)]
    pub struct V1_3_1 {
        pub kind: c_int,
        pub name: *const c_char,
        pub num_aliases: usize,
        pub aliases: *const *const c_char,
        pub num_no_supports: usize,
        pub no_supports: *const *const c_char,
        pub is_set_by_user: u8,
        pub is_expert: u8,
        pub is_regular: u8,
        pub category: c_int,
        pub info_bool: BoolInfo,
        pub info_str: StringInfo,
        pub info_int: NumberInfo<i64>,
        pub info_uint: NumberInfo<u64>,
        pub info_double: NumberInfo<f64>,
        pub info_mode: ModeInfo,
        pub d_cpp_info: *mut c_void,
    }
}

/// What a `cvc5_get_option_info` call has not written: [`Room`] is filled with it.
const UNWRITTEN: u8 = 0xA5;

/// Room for one `Cvc5OptionInfo`: aligned for its pointers and 64-bit numbers, four
/// times the largest layout et knows (240 bytes), filled with [`UNWRITTEN`] so that
/// what the library wrote shows.
#[repr(C, align(8))]
struct Room([u8; 1024]);

const _: () = assert!(std::mem::size_of::<header::V1_3_1>() * 4 <= 1024);

impl Room {
    fn unwritten() -> Room {
        Room([UNWRITTEN; 1024])
    }

    fn as_mut_ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr().cast()
    }

    fn as_ptr(&self) -> *const c_void {
        self.0.as_ptr().cast()
    }

    /// How many leading bytes the library wrote: `sizeof(Cvc5OptionInfo)` of the
    /// library's own header, since every release's `cvc5_get_option_info` first zeroes
    /// the whole struct (`std::memset(info, 0, sizeof(*info))`) and its last field is
    /// a pointer into the library (whose last byte, the most significant on
    /// little-endian machines, is 0; on big-endian ones the least, a multiple of 8).
    fn written(&self) -> usize {
        self.0
            .iter()
            .rposition(|&b| b != UNWRITTEN)
            .map_or(0, |i| i + 1)
    }

    /// The room read as `T`.
    ///
    /// # Safety
    /// `T` is one of the [`header`] structs: no larger than the room, aligned to at
    /// most 8, and made of integers and raw pointers only (any bytes are a value).
    unsafe fn read<T>(&self) -> &T {
        debug_assert!(std::mem::size_of::<T>() <= self.0.len());
        debug_assert!(std::mem::align_of::<T>() <= 8);
        &*self.0.as_ptr().cast::<T>()
    }
}

/// What the driver reads of a `Cvc5OptionInfo`, whichever its layout.
struct Fields {
    kind: c_int,
    name: *const c_char,
    num_aliases: usize,
    aliases: *const *const c_char,
    /// `is_set_by_user`, `is_expert`, `is_regular`.
    flags: [u8; 3],
    /// `category`, from 1.3.1 on.
    category: Option<c_int>,
}

/// The layouts of `Cvc5OptionInfo` (see [`header`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InfoLayout {
    V1_2,
    V1_3_0,
    V1_3_1,
}

impl InfoLayout {
    /// The layout of the release `version` (`cvc5_get_version`: `1.3.0`,
    /// `1.4.2-modified`) if et has read its header: 1.2.0 (the first with a C API) to
    /// 1.4.x. A later release may have changed the struct (1.3.0 and 1.3.1 did, in a
    /// patch release): add it here once its header is read.
    fn for_version(version: &str) -> Option<InfoLayout> {
        let mut parts = version.split(['.', '-', '+', ' ']);
        let mut number = || parts.next()?.parse::<u64>().ok();
        let (major, minor, patch) = (number()?, number()?, number()?);
        match (major, minor, patch) {
            (1, 2, _) => Some(InfoLayout::V1_2),
            (1, 3, 0) => Some(InfoLayout::V1_3_0),
            (1, 3, _) | (1, 4, _) => Some(InfoLayout::V1_3_1),
            _ => None,
        }
    }

    /// `sizeof(Cvc5OptionInfo)` in this layout.
    fn size(self) -> usize {
        match self {
            InfoLayout::V1_2 => std::mem::size_of::<header::V1_2>(),
            InfoLayout::V1_3_0 => std::mem::size_of::<header::V1_3_0>(),
            InfoLayout::V1_3_1 => std::mem::size_of::<header::V1_3_1>(),
        }
    }

    /// Whether a library whose `cvc5_modes_option_category_to_string` is there or not
    /// (`has_category_names`) can have this layout: the function came with the
    /// `category` field.
    fn check_library(self, has_category_names: bool) -> Result<(), String> {
        match (self, has_category_names) {
            (InfoLayout::V1_3_1, false) => Err("the library has no \
                cvc5_modes_option_category_to_string, which came with the category field"
                .to_string()),
            (InfoLayout::V1_2 | InfoLayout::V1_3_0, true) => Err("the library has \
                cvc5_modes_option_category_to_string, but its release's struct has no \
                category field"
                .to_string()),
            _ => Ok(()),
        }
    }

    /// The fields of the struct in `room`, in this layout.
    fn fields(self, room: &Room) -> Fields {
        macro_rules! fields {
            ($t:ty, $category:expr) => {{
                // SAFETY: every `header` struct is smaller than the room, aligned to 8
                // at most, and made of integers and raw pointers (any bytes are a value).
                let info: &$t = unsafe { room.read::<$t>() };
                Fields {
                    kind: info.kind,
                    name: info.name,
                    num_aliases: info.num_aliases,
                    aliases: info.aliases,
                    flags: [info.is_set_by_user, info.is_expert, info.is_regular],
                    category: $category(info),
                }
            }};
        }
        match self {
            InfoLayout::V1_2 => fields!(header::V1_2, |_| None),
            InfoLayout::V1_3_0 => fields!(header::V1_3_0, |_| None),
            InfoLayout::V1_3_1 => fields!(header::V1_3_1, |i: &header::V1_3_1| Some(i.category)),
        }
    }

    /// The category of the option `asked`, read from the struct `cvc5_get_option_info`
    /// wrote in `room` (described by the library as `described`) after checking that
    /// it is one of this layout: as many bytes written as the layout has; the kind
    /// the one the description names; `name` the option asked for (or the option an
    /// alias asked for names); the flags 0 or 1; the category one of the enumerators,
    /// named by the library (`category_name`, `cvc5_modes_option_category_to_string`)
    /// as the header's order says.
    ///
    /// # Safety
    /// `room` holds what `cvc5_get_option_info` wrote (its pointers are the library's,
    /// alive until its next call), and `category_name` is the library's function.
    unsafe fn category(
        self,
        room: &Room,
        asked: &CStr,
        described: &str,
        category_name: Option<unsafe extern "C" fn(c_int) -> *const c_char>,
    ) -> Result<Category, String> {
        let (written, size) = (room.written(), self.size());
        if written != size {
            return Err(format!(
                "the library wrote a Cvc5OptionInfo of {written} bytes, \
                 the {self:?} header's has {size}"
            ));
        }
        let f = self.fields(room);
        let word = described_fields(described).get(1).copied().unwrap_or("");
        match KIND_WORDS.iter().position(|w| *w == word) {
            Some(k) if k as c_int != f.kind => {
                return Err(format!(
                    "its kind is {} but the library describes it as `{word}`",
                    f.kind
                ))
            }
            None if !(0..KIND_WORDS.len() as c_int).contains(&f.kind) => {
                return Err(format!("its kind {} is no Cvc5OptionInfoKind", f.kind))
            }
            _ => {}
        }
        if f.name.is_null() {
            return Err("its name is null".to_string());
        }
        let name = CStr::from_ptr(f.name);
        if name != asked {
            // An alias: the struct names the option, whose aliases include it.
            if f.aliases.is_null() || f.num_aliases > 256 {
                return Err(format!(
                    "its name is `{}` and it has no list of aliases",
                    name.to_string_lossy()
                ));
            }
            let aliases = std::slice::from_raw_parts(f.aliases, f.num_aliases);
            if !aliases
                .iter()
                .any(|&a| !a.is_null() && CStr::from_ptr(a) == asked)
            {
                return Err(format!(
                    "its name is `{}`, with no such alias",
                    name.to_string_lossy()
                ));
            }
        }
        if let Some(bad) = f.flags.iter().find(|&&b| b > 1) {
            return Err(format!("a bool field holds {bad}"));
        }
        let [_, expert, regular] = f.flags;
        match f.category {
            Some(value) => {
                let category = usize::try_from(value)
                    .ok()
                    .and_then(|v| CATEGORY_ORDER.get(v).copied())
                    .ok_or_else(|| format!("its category {value} is no Cvc5OptionCategory"))?;
                let named = category_name
                    .map(|f| cstr(f(value)))
                    .ok_or("the library cannot name a category")?;
                if named != category.label() {
                    return Err(format!(
                        "the library names category {value} `{named}`, the header `{}`",
                        category.label()
                    ));
                }
                // Deprecated, and left 0 since 1.3.1; if set, they must agree.
                if (expert == 1 && category != Category::Expert)
                    || (regular == 1 && category != Category::Regular)
                {
                    return Err(format!(
                        "its category is {} but is_expert is {expert} and is_regular {regular}",
                        category.label()
                    ));
                }
                Ok(category)
            }
            None => match (expert, regular) {
                (1, 1) => Err("it is both expert and regular".to_string()),
                (1, _) => Ok(Category::Expert),
                (_, 1) => Ok(Category::Regular),
                _ => Ok(Category::CommonOrUndocumented),
            },
        }
    }
}

/// Sets the command line's options on `solver`; an option cvc5 refuses ends the run.
///
/// # Safety
/// `solver` comes from `api` and is alive.
unsafe fn set_options(
    api: &Api,
    solver: Ptr,
    options: &[(String, String, String)],
    out: &mut impl Write,
) -> Result<(), ExitCode> {
    for (name, value, arg) in options {
        let (n, v) = (c(name), c(value));
        (api.set_option)(solver, n.as_ptr(), v.as_ptr());
        if let Some(err) = api.last_error() {
            print_error(
                out,
                &format!("Error in option parsing: can't understand option `{arg}': {err}"),
            );
            return Err(ExitCode::FAILURE);
        }
    }
    Ok(())
}

/// Reads standard input as it arrives and hands the parser each complete top-level
/// command as soon as its closing parenthesis is read, so every answer is printed
/// before more input is awaited (the parser would take a command cut in the middle
/// for the end of the input). What is left at the end of the input, complete or not,
/// goes to the parser last.
///
/// The outputs of the commands that arrived together leave in one write, when the
/// driver has executed them all and would wait for more: a session sends a formula's
/// commands and its echoes at once, and one write wakes et once where a write per
/// output (the lead echo, the answer, the closing echo) woke it three times.
///
/// # Safety
/// As [`execute`].
unsafe fn stream_stdin(
    api: &Api,
    parser: Ptr,
    solver: Ptr,
    sm: Ptr,
    inv: &Invocation,
    out: &mut impl Write,
) -> ExitCode {
    // `--tlimit` aborts the process from another thread, which would lose what the
    // buffer holds: with it, each output goes out as it is produced (a buffer of no
    // capacity passes every write through).
    let capacity = if inv.tlimit_ms.is_some_and(|ms| ms > 0) {
        0
    } else {
        64 * 1024
    };
    // Flushed before each read, and when dropped on the way out.
    let out = &mut std::io::BufWriter::with_capacity(capacity, out);
    let mut stdin = std::io::stdin().lock();
    let name = c("<stdin>");
    // The batch the parser reads; kept alive until the next one replaces it.
    let mut text;
    let mut pending: Vec<u8> = Vec::new();
    let mut commands = Commands::default();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let _ = out.flush();
        let n = match stdin.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                print_error(out, &format!("Couldn't read standard input: {e}"));
                return ExitCode::FAILURE;
            }
        };
        let at_end = n == 0;
        pending.extend_from_slice(&buf[..n]);
        let complete = if at_end {
            pending.len()
        } else {
            commands.scan(&pending)
        };
        if complete > 0 {
            text = c(&String::from_utf8_lossy(&pending[..complete]));
            // A new string input per batch of complete commands: the parser's symbol
            // manager (declarations, the logic) stays. cvc5 1.4.2's incremental string
            // input (`cvc5_parser_append_inc_str_input`) stopped giving commands after
            // its second append.
            (api.parser_set_str_input)(parser, SMT_LIB_2_6, text.as_ptr(), name.as_ptr());
            if let Some(err) = api.last_error() {
                print_error(out, &err);
                return ExitCode::FAILURE;
            }
            pending.drain(..complete);
            commands.consumed(complete);
            if let Next::Stop(code) = execute(api, parser, solver, sm, "<stdin>", inv, out) {
                return code;
            }
        }
        if at_end {
            return ExitCode::SUCCESS;
        }
    }
}

/// Finds where complete top-level SMT-LIB commands end in the text read so far:
/// parentheses are counted outside string literals (`"..."`, `""` inside is a quote),
/// quoted symbols (`|...|`) and comments (`;` to the end of the line). The scan goes
/// on where the last one stopped.
#[derive(Default)]
struct Commands {
    /// Bytes of the pending text already scanned.
    scanned: usize,
    /// End of the last complete command in the pending text.
    complete: usize,
    depth: usize,
    within: Within,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Within {
    #[default]
    Code,
    Str,
    /// A `"` inside a string: the end of the string, or the first of `""`.
    StrQuote,
    Quoted,
    Comment,
}

impl Commands {
    /// Scans `pending` from where the last scan stopped; returns how many of its bytes
    /// are complete commands.
    fn scan(&mut self, pending: &[u8]) -> usize {
        for (i, &b) in pending.iter().enumerate().skip(self.scanned) {
            self.within = match (self.within, b) {
                (Within::Str, b'"') => Within::StrQuote,
                (Within::Str, _) => Within::Str,
                (Within::StrQuote, b'"') => Within::Str,
                (Within::Quoted, b'|') => Within::Code,
                (Within::Quoted, _) => Within::Quoted,
                (Within::Comment, b'\n') => Within::Code,
                (Within::Comment, _) => Within::Comment,
                // After a string's closing quote, `b` is code again.
                (Within::Code | Within::StrQuote, _) => self.code(i, b),
            };
        }
        self.scanned = pending.len();
        self.complete
    }

    /// The state after byte `b` at `i` read as code.
    fn code(&mut self, i: usize, b: u8) -> Within {
        match b {
            b'"' => Within::Str,
            b'|' => Within::Quoted,
            b';' => Within::Comment,
            b'(' => {
                self.depth += 1;
                Within::Code
            }
            b')' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.complete = i + 1;
                }
                Within::Code
            }
            _ => Within::Code,
        }
    }

    /// The first `n` bytes (complete commands) left the pending text.
    fn consumed(&mut self, n: usize) {
        self.scanned = self.scanned.saturating_sub(n);
        self.complete = self.complete.saturating_sub(n);
    }
}

/// A C string from Rust text; interior NULs cannot come from a command line or a file
/// cvc5 would accept, so they are dropped rather than reported.
fn c(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    /// The `header` structs as a C compiler lays cvc5's headers out on 64-bit Linux
    /// (x86-64 and aarch64 agree), worked out by hand from the headers.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn the_layouts_are_the_headers() {
        use std::mem::offset_of;
        assert_eq!(offset_of!(header::V1_2, name), 8);
        assert_eq!(offset_of!(header::V1_2, aliases), 24);
        assert_eq!(offset_of!(header::V1_2, is_expert), 33);
        assert_eq!(size_of::<header::V1_2>(), 216);
        assert_eq!(offset_of!(header::V1_3_0, is_expert), 49);
        assert_eq!(size_of::<header::V1_3_0>(), 232);
        assert_eq!(offset_of!(header::V1_3_1, is_regular), 50);
        assert_eq!(offset_of!(header::V1_3_1, category), 52);
        assert_eq!(offset_of!(header::V1_3_1, info_bool), 56);
        assert_eq!(offset_of!(header::V1_3_1, d_cpp_info), 232);
        assert_eq!(size_of::<header::V1_3_1>(), 240);
    }

    #[test]
    fn releases_have_the_layout_of_their_header_or_none() {
        let of = InfoLayout::for_version;
        assert_eq!(of("1.2.0"), Some(InfoLayout::V1_2));
        assert_eq!(of("1.2.1"), Some(InfoLayout::V1_2));
        assert_eq!(of("1.3.0"), Some(InfoLayout::V1_3_0));
        assert_eq!(of("1.3.1"), Some(InfoLayout::V1_3_1));
        assert_eq!(of("1.3.3-modified"), Some(InfoLayout::V1_3_1));
        assert_eq!(of("1.4.2-modified"), Some(InfoLayout::V1_3_1));
        for unread in ["1.1.2", "1.5.0", "2.0.0", "1.4", "", "cvc5"] {
            assert_eq!(of(unread), None, "{unread}");
        }
    }

    /// `cvc5_modes_option_category_to_string` as cvc5 has it.
    unsafe extern "C" fn cvc5_names(value: c_int) -> *const c_char {
        match value {
            0 => c"regular".as_ptr(),
            1 => c"expert".as_ptr(),
            2 => c"common".as_ptr(),
            3 => c"undocumented".as_ptr(),
            _ => c"?".as_ptr(),
        }
    }

    /// A library whose enumerators are not in the order et read.
    unsafe extern "C" fn other_order(value: c_int) -> *const c_char {
        match value {
            0 => c"common".as_ptr(),
            1 => c"expert".as_ptr(),
            _ => c"regular".as_ptr(),
        }
    }

    /// A room as `cvc5_get_option_info` leaves it: a `T` zeroed, then `fill`ed.
    fn written<T>(fill: impl FnOnce(&mut T)) -> Room {
        let mut room = Room::unwritten();
        // SAFETY: `T` is a `header` struct, which fits in the room and is aligned to 8
        // at most; zeroed, all of its fields are values (0, null pointers).
        unsafe {
            let p = room.0.as_mut_ptr();
            std::ptr::write_bytes(p, 0, size_of::<T>());
            fill(&mut *p.cast::<T>());
        }
        room
    }

    const BOOL_OPTION: &str = "OptionInfo{ bv-rw-extend-eq | bool | false | default false }";

    fn category_of(
        layout: InfoLayout,
        room: &Room,
        asked: &CStr,
        names: unsafe extern "C" fn(c_int) -> *const c_char,
    ) -> Result<Category, String> {
        // SAFETY: the room's pointers are to static strings; `names` is a function of
        // the library's prototype.
        unsafe { layout.category(room, asked, BOOL_OPTION, Some(names)) }
    }

    #[test]
    fn the_category_field_is_read_in_the_headers_order_and_checked() {
        let name = c"bv-rw-extend-eq";
        let info = |category: c_int| {
            written(|i: &mut header::V1_3_1| {
                i.kind = 1;
                i.name = name.as_ptr();
                i.category = category;
            })
        };
        let read = |room: &Room| category_of(InfoLayout::V1_3_1, room, name, cvc5_names);
        assert_eq!(read(&info(0)), Ok(Category::Regular));
        assert_eq!(read(&info(1)), Ok(Category::Expert));
        assert_eq!(read(&info(2)), Ok(Category::Common));
        assert_eq!(read(&info(3)), Ok(Category::Undocumented));
        for bad in [4, -1, 0x0101_0101] {
            assert!(read(&info(bad)).is_err(), "{bad}");
        }
        // A library that names the enumerators otherwise gives none.
        let err = category_of(InfoLayout::V1_3_1, &info(0), name, other_order).unwrap_err();
        assert!(err.contains("`common`"), "{err}");
        // Another layout's view of the same bytes: more or fewer bytes than written.
        for other in [InfoLayout::V1_2, InfoLayout::V1_3_0] {
            let err = category_of(other, &info(1), name, cvc5_names).unwrap_err();
            assert!(err.contains("240 bytes"), "{err}");
        }
        // The name must be the option asked for (or have it as an alias).
        let err = category_of(InfoLayout::V1_3_1, &info(1), c"bv-eq", cvc5_names).unwrap_err();
        assert!(err.contains("bv-rw-extend-eq"), "{err}");
        let aliases = [c"bv-other".as_ptr(), c"bv-eq".as_ptr()];
        let aliased = written(|i: &mut header::V1_3_1| {
            i.kind = 1;
            i.name = name.as_ptr();
            i.num_aliases = 2;
            i.aliases = aliases.as_ptr();
            i.category = 1;
        });
        assert_eq!(
            category_of(InfoLayout::V1_3_1, &aliased, c"bv-eq", cvc5_names),
            Ok(Category::Expert)
        );
        // Bools are 0 or 1; deprecated flags, if set, agree; the kind is the described one.
        let flagged = |expert: u8, kind: c_int| {
            written(|i: &mut header::V1_3_1| {
                i.kind = kind;
                i.name = name.as_ptr();
                i.is_expert = expert;
                i.category = 0;
            })
        };
        assert!(read(&flagged(2, 1)).is_err());
        assert!(read(&flagged(1, 1)).is_err());
        assert!(read(&flagged(0, 3)).is_err());
        assert_eq!(read(&flagged(0, 1)), Ok(Category::Regular));
    }

    #[test]
    fn before_the_category_field_the_flags_tell_expert_and_regular() {
        let name = c"bv-rw-extend-eq";
        let info = |expert: u8, regular: u8| {
            written(|i: &mut header::V1_3_0| {
                i.kind = 1;
                i.name = name.as_ptr();
                i.is_expert = expert;
                i.is_regular = regular;
            })
        };
        let read = |room: &Room| category_of(InfoLayout::V1_3_0, room, name, cvc5_names);
        assert_eq!(read(&info(1, 0)), Ok(Category::Expert));
        assert_eq!(read(&info(0, 1)), Ok(Category::Regular));
        assert_eq!(read(&info(0, 0)), Ok(Category::CommonOrUndocumented));
        assert!(read(&info(1, 1)).is_err());
        assert!(read(&info(0, 3)).is_err());
        let v1_2 = written(|i: &mut header::V1_2| {
            i.kind = 1;
            i.name = name.as_ptr();
            i.is_expert = 1;
        });
        assert_eq!(
            category_of(InfoLayout::V1_2, &v1_2, name, cvc5_names),
            Ok(Category::Expert)
        );
        // The naming function came with the field: a library must match its layout.
        assert!(InfoLayout::V1_3_1.check_library(true).is_ok());
        assert!(InfoLayout::V1_3_1.check_library(false).is_err());
        assert!(InfoLayout::V1_3_0.check_library(true).is_err());
        assert!(InfoLayout::V1_2.check_library(false).is_ok());
    }

    #[test]
    fn a_category_is_a_sixth_field_and_none_leaves_five() {
        assert_eq!(
            option_line("bv-rw-extend-eq", BOOL_OPTION, Some(Category::Expert)),
            "bv-rw-extend-eq\tbool\tfalse\t-\t\texpert"
        );
        assert_eq!(
            option_line("bv-rw-extend-eq", BOOL_OPTION, None),
            "bv-rw-extend-eq\tbool\tfalse\t-\t"
        );
        let mode = "OptionInfo{ simplification, simplification-mode | mode | batch \
                    | default batch | modes: batch, none }";
        assert_eq!(
            option_line("simplification", mode, Some(Category::CommonOrUndocumented)),
            "simplification\tenum\tbatch\tbatch|none\t\tcommon-or-undocumented"
        );
    }
}
