"""cvc5 driver for cvc5 1.0.9-1.1.x wheels, installed by `et solvers install` as
<solver dir>/bin/cvc5 with the wheel unpacked in <solver dir>/python.

Those wheels have no C API, but their Python API has an SMT-LIB InputParser. This script
behaves like the cvc5 binary where a campaign can see it (same as et's C-API runner
et-cvc5): outputs on stdout as they come, `(error "...")` and exit 1 on a parse or
command error, `--tlimit=MS` prints `cvc5 interrupted by timeout.` and aborts, options
`--name=value`, `--name`, `--no-name`, `-q`; `--et-list-options` prints every option in
et's catalog line format. Costs one Python start-up per call.
"""
import os
import sys
import signal
import time

WATCHDOG = None  # pid of the --tlimit watchdog process
USAGE = "usage: cvc5 [OPTIONS] [FILE]   (et cvc5 driver over the wheel's Python InputParser)"


def error(msg):
    sys.stdout.write('(error "%s")\n' % str(msg).rstrip())
    sys.stdout.flush()
    return 1


def timeout(ms):
    """Arms the time limit in a forked watchdog: cvc5 holds the GIL while it solves, so no
    Python thread or signal handler of this process could run in time."""
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        os.close(0)
        os.close(1)
        time.sleep(ms / 1000.0)
        if os.getppid() == parent:
            sys.stderr.write("cvc5 interrupted by timeout.\n")
            sys.stderr.flush()
            os.kill(parent, signal.SIGABRT)
        os._exit(0)
    return child


def list_options(solver):
    """Every option of this release in et's catalog line format
    (NAME<TAB>TYPE<TAB>DEFAULT<TAB>VALUES<TAB>NOTE), from the Python API's
    getOptionNames and getOptionInfo: what et's C-API runner prints for 1.2 and later."""
    kinds = {bool: "bool", int: "int", float: "real", str: "text", "mode": "enum"}
    print("# cvc5 %s options" % solver.getVersion().decode())
    for name in solver.getOptionNames():
        info = solver.getOptionInfo(name)
        kind = kinds.get(info.get("type"), "text")
        default = info.get("default")
        if isinstance(default, bool):
            default = "true" if default else "false"
        default = "-" if default is None or default == "" else str(default)
        values = "-"
        if kind == "enum":
            values = "|".join(info.get("modes", [])) or "-"
        elif info.get("minimum") is not None or info.get("maximum") is not None:
            low, high = info.get("minimum"), info.get("maximum")
            values = "%s..%s" % ("" if low is None else low, "" if high is None else high)
        note = "takes no value" if info.get("type") is None else ""
        print("\t".join([name, kind, default, values, note]))
    return 0


def main(argv):
    global WATCHDOG
    options, source, version, listing = [], None, False, False
    for arg in argv:
        if arg == "--et-list-options":
            listing = True
        elif arg in ("-q", "--quiet"):
            options.append(("quiet", "true", arg))
        elif arg in ("-v", "--verbose"):
            options.append(("verbose", "true", arg))
        elif arg in ("-V", "--version"):
            version = True
        elif arg in ("-h", "--help"):
            print(USAGE)
            return 0
        elif arg.startswith("--"):
            opt = arg[2:]
            if "=" in opt:
                name, value = opt.split("=", 1)
            elif opt.startswith("no-"):
                name, value = opt[3:], "false"
            else:
                name, value = opt, "true"
            if name == "tlimit":
                try:
                    ms = int(value)
                    if ms > 0:  # as in cvc5, 0 means no limit
                        WATCHDOG = timeout(ms)
                except ValueError:
                    return error("Error in option parsing: --tlimit expects milliseconds, got `%s'" % value)
            elif name in ("lang", "input-language", "output-lang", "output-language"):
                if not value.startswith("smt"):
                    return error("Error in option parsing: this runner reads SMT-LIB only, not `%s'" % value)
            else:
                options.append((name, value, arg))
        elif arg.startswith("-") and arg != "-":
            return error("Error in option parsing: can't understand option `%s'" % arg)
        elif source is not None:
            return error("Error in option parsing: too many input files (`%s')" % arg)
        else:
            source = arg

    here = os.path.dirname(os.path.realpath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "python"))
    import cvc5

    solver = cvc5.Solver()
    if version:
        print("This is cvc5 version %s [et runner over the Python API]" % solver.getVersion().decode())
        return 0
    if listing:
        return list_options(solver)
    for name, value, arg in options:
        try:
            solver.setOption(name, value)
        except Exception as e:
            return error("Error in option parsing: can't understand option `%s': %s" % (arg, e))
    sm = cvc5.SymbolManager(solver)
    parser = cvc5.InputParser(solver, sm)
    lang = cvc5.InputLanguage.SMT_LIB_2_6
    if source is not None and source != "-":
        if not os.path.exists(source):
            return error("Couldn't open file: %s" % source)
        parser.setFileInput(lang, source)
    else:
        source = "<stdin>"
        parser.setStringInput(lang, sys.stdin.read(), source)
    while True:
        try:
            cmd = parser.nextCommand()
        except Exception as e:
            return error("Parse Error: %s: %s" % (source, e))
        if cmd.isNull():
            return 0
        try:
            out = cmd.invoke(solver, sm)
        except Exception as e:
            return error(e)
        sys.stdout.write(out)
        sys.stdout.flush()
        if out.startswith("(error"):
            return 1
        if cmd.getCommandName() == "exit":
            return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    if WATCHDOG:
        os.kill(WATCHDOG, signal.SIGKILL)
    # Skip interpreter teardown and cvc5's destructors: nothing is left to write.
    os._exit(code)
