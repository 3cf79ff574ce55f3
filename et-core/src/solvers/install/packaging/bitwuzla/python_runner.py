"""bitwuzla driver for the bitwuzla PyPI wheels, installed by `et solvers install` as
<solver dir>/bin/bitwuzla with the wheel's module in <solver dir>/python.

The wheels hold the Python bindings, not the bitwuzla program, but their Parser reads
SMT-LIB and prints answers, models and values as the program does. This script behaves
like the program where a campaign can see it: `bitwuzla [OPTIONS] [FILE]` (stdin
without FILE), options in bitwuzla's own syntax (`-m`/`--produce-models`,
`--time-limit-per=MS`, `--seed=N`, ...: handed to `Options.set_args`), `-V`/`--version`,
`--et-list-options` (every option in et's catalog line format, for `et options list`),
and on any error an `(error "...")` line on stdout and exit 1, stopping there as the
program does. A file costs one Python start-up per call; standard input is executed
as it arrives, so one process serves a whole et session (see `session`).

The script is given to the parser one top-level command at a time, and the C++ output
is flushed after each: an answer printed before a later command crashes the process
(bitwuzla 0.9.1 dies of SIGSEGV on `(get-model)` after `(reset)`) is not lost in a
buffer. A parse error leaves bitwuzla's parser unusable, so the first error ends the
run.
"""
import ctypes
import os
import sys

USAGE = "usage: bitwuzla [OPTIONS] [FILE]   (et bitwuzla driver over the wheel's Python Parser)"
LIBC = ctypes.CDLL(None)


def flush():
    """Flushes C's stdio buffers (where bitwuzla's C++ output waits) before Python writes."""
    LIBC.fflush(None)


def error(msg):
    flush()
    os.write(1, ('(error "%s")\n' % str(msg).rstrip().replace('"', '""')).encode())
    return 1


def commands(text):
    """The top-level S-expressions of an SMT-LIB script, each with the 1-based line and
    column where it starts (strings, quoted symbols and comments may hold parentheses).
    Anything that is not a complete command (stray text, an unclosed command) is given
    whole as the last piece, so that the parser reports what is wrong with it."""
    depth, start, i, n = 0, 0, 0, len(text)
    line, col = 1, 1
    start_line, start_col = 1, 1
    while i < n:
        c = text[i]
        if depth == 0 and not c.isspace() and c not in "(;":
            yield text[i:], line, col
            return
        if c == ";":
            stop = text.find("\n", i)
            i = n if stop == -1 else stop
            continue
        if c in "\"|":
            end = text.find(c, i + 1)
            while c == '"' and end != -1 and text[end + 1:end + 2] == '"':
                end = text.find(c, end + 2)  # "" is an escaped quote in SMT-LIB 2.6
            end = n - 1 if end == -1 else end
            chunk = text[i:end + 1]
            if "\n" in chunk:
                line += chunk.count("\n")
                col = len(chunk) - chunk.rfind("\n")
            else:
                col += len(chunk)
            i = end + 1
            continue
        if c == "(":
            if depth == 0:
                start, start_line, start_col = i, line, col
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                yield text[start:i + 1], start_line, start_col
        if c == "\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    if depth > 0:
        yield text[start:], start_line, start_col


def located(message, source, line, col):
    """bitwuzla names the place of an error as `<string>:L:C:` within the command it was
    given; this names it in the whole script. Messages without a place (0.9.x says
    only `got 0` for an Int numeral) get the place of their command."""
    prefix = "<string>:"
    place, sep, rest = message[len(prefix):].partition(": ")
    parts = place.split(":")
    if not (message.startswith(prefix) and sep and len(parts) == 2
            and all(p.isdigit() for p in parts)):
        return "%s:%d:%d: %s" % (source, line, col, message)
    l, c = int(parts[0]), int(parts[1])
    c = col + c - 1 if l == 1 else c
    return "%s:%d:%d: %s" % (source, line + l - 1, c, rest)


def list_options(bitwuzla):
    """Every option of this release in et's catalog line format
    (NAME<TAB>TYPE<TAB>DEFAULT<TAB>VALUES<TAB>NOTE), read from the Python API: what
    `et options list` shows and enumerates."""
    options = bitwuzla.Options()
    print("# options of bitwuzla %s, read through its Python API by et's driver" % bitwuzla.version())
    for option in bitwuzla.Option:
        name = options.lng(option)
        value = options.get(option)
        values = "-"
        if options.is_bool(option):
            kind, default = "bool", "true" if value else "false"
        elif options.is_numeric(option):
            kind, default = "uint", str(value)
        elif options.is_mode(option):
            kind, default = "enum", str(value)
            values = "|".join(options.modes(option))
        else:
            kind, default = "text", "-" if value in (None, "") else str(value)
        note = " ".join(options.description(option).split())
        print("\t".join([name, kind, default, values, note]))
    return 0


def main(argv):
    args, source, version, listing = [], None, False, False
    for arg in argv:
        if arg in ("-V", "--version"):
            version = True
        elif arg == "--et-list-options":
            listing = True
        elif arg in ("-h", "--help"):
            print(USAGE)
            return 0
        elif arg.startswith("-") and arg != "-":
            args.append(arg)
        elif source is not None:
            return error("too many input files (`%s')" % arg)
        else:
            source = arg

    here = os.path.dirname(os.path.realpath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "python"))
    import bitwuzla

    if version:
        print("%s [et runner over the Python API]" % bitwuzla.version())
        return 0
    if listing:
        return list_options(bitwuzla)
    options = bitwuzla.Options()
    if args:
        try:
            options.set_args(*args)
        except Exception as e:
            return error(e)
    if source is not None and source != "-":
        try:
            with open(source, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as e:
            return error("cannot open %s: %s" % (source, e.strerror))
    else:
        return session(bitwuzla, options)
    parser = bitwuzla.Parser(bitwuzla.TermManager(), options)
    for command, line, col in commands(text):
        try:
            parser.parse(command, False, False)
        except Exception as e:
            return error(located(str(e), source, line, col))
        flush()
        if command[1:].lstrip().startswith("exit"):
            break
    return 0


def complete(text):
    """Whether `text` ends outside any command, string, quoted symbol or comment."""
    depth, i, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            stop = text.find("\n", i)
            if stop == -1:
                return False
            i = stop
        elif c in "\"|":
            end = text.find(c, i + 1)
            while c == '"' and end != -1 and text[end + 1:end + 2] == '"':
                end = text.find(c, end + 2)
            if end == -1:
                return False
            i = end
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return depth <= 0


def session(bitwuzla, options):
    """Standard input, executed as it arrives: each line once the commands it completes
    are whole, so that et's sessions (formula after formula, `(reset)` in between, an
    `(echo ...)` after each) get every answer before they send the next formula.
    `(reset)` starts a new parser and term manager with the command line's options (in
    bitwuzla 0.9.1 the parser's own reset leaves `(get-model)` to crash)."""
    parser = bitwuzla.Parser(bitwuzla.TermManager(), options)
    pending, first_line, lines = "", 1, 0
    for text in sys.stdin:
        lines += 1
        pending += text
        if not complete(pending):
            continue
        for command, line, col in commands(pending):
            if command[1:].lstrip().startswith("reset") and command.rstrip().endswith(")"):
                parser = bitwuzla.Parser(bitwuzla.TermManager(), options)
                continue
            try:
                parser.parse(command, False, False)
            except Exception as e:
                return error(located(str(e), "<stdin>", first_line + line - 1, col))
            flush()
            if command[1:].lstrip().startswith("exit"):
                return 0
        pending, first_line = "", lines + 1
    for command, line, col in commands(pending):
        # What is left at the end is not a complete command: the parser says why.
        try:
            parser.parse(command, False, False)
        except Exception as e:
            return error(located(str(e), "<stdin>", first_line + line - 1, col))
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    flush()
    sys.stdout.flush()
    # Skip interpreter teardown and bitwuzla's destructors: nothing is left to write.
    os._exit(code)
