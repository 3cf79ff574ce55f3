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
/// (`NAME\tTYPE\tDEFAULT\tVALUES\tNOTE`, see `et_core::solvers::family::catalog`),
/// read through `cvc5_option_info_to_string`, whose text is
/// `OptionInfo{ NAME[, ALIAS...] | TYPE | VALUE | default DEFAULT [| MIN <= x <= MAX]
/// [| modes: A, B] }`: the struct's layout is not needed, only room for it.
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
    let mut count = 0usize;
    let list = names(solver, &mut count);
    let _ = writeln!(out, "# cvc5 {} options", cstr((api.get_version)(solver)));
    for i in 0..count {
        let name = *list.add(i);
        // Far more room than a Cvc5OptionInfo takes (about 100 bytes), zeroed and
        // aligned for its pointers and 64-bit numbers.
        let mut room = [0u64; 128];
        info(solver, name, room.as_mut_ptr().cast());
        let described = cstr(text(room.as_ptr().cast()));
        let _ = writeln!(out, "{}", option_line(&cstr(name), &described));
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

/// One option in et's catalog line format from cvc5's description of it.
fn option_line(name: &str, described: &str) -> String {
    let body = described
        .trim()
        .trim_start_matches("OptionInfo{")
        .trim_end_matches('}')
        .trim();
    let fields: Vec<&str> = body.split(" | ").map(str::trim).collect();
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
    format!("{name}\t{kind}\t{default}\t{values}\t{note}")
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
