"""The ``exact-odds`` command line: argparse subcommands by family, no arithmetic, no policy.

``main(argv)`` returns the exit status: 0 on success, 1 when a check fails, 2 on bad input or an output
that cannot be written (one line on stderr, never a traceback), 128 + the signal when stopped
(:mod:`exact_odds.cli.signals`); docs/formats.md tells the whole contract. Each file written is named on
stderr unless ``--quiet``, and the files of a command commit together (:mod:`exact_odds.report.files`).
"""

from __future__ import annotations

import argparse
import errno
import gc
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext, suppress
from importlib import import_module
from itertools import combinations
from typing import Any

from exact_odds import __version__
from exact_odds.cli.options import GAME_HELP, Handler, Parser, Subparsers
from exact_odds.cli.signals import RECEIVED, Terminated, exit_now, signals_end_cleanly, stopping
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError
from exact_odds.report.files import atomic_binary_file, atomic_file, check_output, committed_together, shown
from exact_odds.report.plots import check_figure_path
from exact_odds.study.workers import one_thread_unless_chosen

PROG = "exact-odds"

FAMILY_OF: dict[str, str] = {
    "odds": "reference", "edges": "reference", "parsheet": "reference", "symbolic": "reference",
    "report": "reference", "sidebets": "reference", "simulate": "simulation", "deal": "simulation",
    "session": "simulation", "roads": "simulation", "bunco": "bunco", "eor": "study", "batch": "study",
    "study": "study", "count": "study", "advantage": "reference", "chemin-de-fer": "chemin", "verify": "simulation",
    "completion": "completion"}
"""The module of :mod:`exact_odds.cli` declaring each command (:func:`add_command`), in the order of the help."""


def add_command(sub: Subparsers, command: str) -> None:
    """Add ``command`` to ``sub`` (its family module imported now): the module's ``add_<command>`` declares
    its options, and ``cmd_<command>`` runs it (dashes as underscores: ``add_chemin_de_fer``)."""
    module = import_module(f"exact_odds.cli.{FAMILY_OF[command]}")
    name = command.replace("-", "_")
    getattr(module, f"add_{name}")(sub)
    sub.choices[command].set_defaults(handler=getattr(module, f"cmd_{name}"))


def build_parser(only: str | None = None) -> Parser:
    """The argument parser with every subcommand, or with command ``only`` alone when it names one.

    Building all two dozen costs more than a whole ``odds`` command, so :func:`main` asks for the
    command named first, whose family module alone is imported; ``--version`` needs none.
    """
    parser = Parser(prog=PROG, description="Exact odds of casino games by full enumeration of the shoe.",
                    epilog=f"Run '{PROG} COMMAND --help' for a command's options and examples.")
    parser.add_argument("--version", action=VersionAction, nargs=0, dest=argparse.SUPPRESS,
                        default=argparse.SUPPRESS, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    if only == "--version":
        return parser
    for command in [only] if only in FAMILY_OF else FAMILY_OF:
        add_command(sub, command)
    for command_parser in command_parsers(parser):
        _check_written_files(command_parser)
        _name_game_parts(command_parser)
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Parser]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def command_parsers(parser: argparse.ArgumentParser) -> list[Parser]:
    """The parser of every subcommand of ``parser``, once each (aliases aside)."""
    return list({id(p): p for p in _subparsers(parser).choices.values()}.values())


class VersionAction(argparse.Action):
    """``--version``: print ``exact-odds <version>`` and exit 0."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        write_stdout(f"{PROG} {__version__}\n")
        parser.exit()


WRITTEN_FILES: dict[str, Callable[[str], str]] = {"--output": check_output, "--log": check_output,
                                                  "--plot": check_figure_path}
"""Options naming a file a command writes, and the check each gets at parse time, before any work."""


GAME_PARTS = (("--decks", "--decks/--shoe"), ("--rules", "--rules"), ("--config", "--config"),
              ("--cut-card", "--cut-card"), ("--last-coup", "--last-coup"), ("--no-burn", "--no-burn"))
"""The options that replace a part of a game, as --game's help names them."""


def _name_game_parts(parser: argparse.ArgumentParser) -> None:
    """--game's help names the command's options that replace a part of the game, and --bets."""
    options = {o for action in parser._actions for o in action.option_strings}
    game = next((a for a in parser._actions if "--game" in a.option_strings), None)
    if game is None:
        return
    parts = [shown for option, shown in GAME_PARTS if option in options]
    named = ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else "".join(parts)
    game.help = GAME_HELP + (f"; {named} replace{'s' if len(parts) == 1 else ''} its parts" if parts else "") + (
        ", --bets adds bets" if "--bets" in options else "")


def _written_option(action: argparse.Action) -> str | None:
    return next((o for o in action.option_strings if o in WRITTEN_FILES), None)


def _check_written_files(parser: argparse.ArgumentParser) -> None:
    """Give every option of :data:`WRITTEN_FILES` its check (after the option's own ``type=``, if any)."""
    for action in parser._actions:
        option = _written_option(action)
        if option is not None:
            action.type = _argument_type(action.type, WRITTEN_FILES[option])


def _argument_type(first: Any, check: Callable[[str], str]) -> Callable[[str], Any]:
    """An argparse type running ``first`` (if any), then ``check``, whose InputError becomes argparse's error."""

    def checked(text: str) -> Any:
        value = first(text) if callable(first) else text
        if value is None:  # no file: ``--output -`` is standard output
            return None
        try:
            check(str(value))
        except InputError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        return value

    return checked


Written = list[tuple[str, str]]
"""The files a command line writes: (option, file name) for each option of :data:`WRITTEN_FILES` given."""


def _written_files(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Written:
    command = _subparsers(parser).choices[args.command]
    given = [(_written_option(a), getattr(args, a.dest, None)) for a in command._actions]
    return [(option, str(value)) for option, value in given if option is not None and value is not None]


def _refuse_shared_files(written: Written, command: str) -> None:
    """Raise :class:`InputError` if two options of ``written`` name the same file (after links)."""
    for (first, path), (second, other) in combinations(written, 2):
        if _same_file(path, other):
            names = shown(path) if path == other else f"{shown(path)} and {shown(other)}"
            raise InputError(f"{first} and {second} name the same file ({names}): give each its own file "
                             f"(see '{PROG} {command} --help')")


def _same_file(path: str, other: str) -> bool:
    if os.path.realpath(path) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(path, other)
    except (OSError, ValueError):  # a new file: only its path can be the same
        return False


def _run_command(args: argparse.Namespace, written: Written) -> None:
    """Run the command and write its output; the ``written`` files commit together, and then each is
    named on stderr, in the order of the command's options."""
    with committed_together() if written else nullcontext():
        _emit(args)
    if written and not getattr(args, "quiet", False):
        for _, path in written:
            _say(f"wrote {str(path)!r}")  # whole: a file just written, its name at most the system's longest path


def _emit(args: argparse.Namespace) -> None:
    """Run the command and write its output to its ``--output`` file (staged, then renamed into place) or to
    stdout, a binary output (a workbook) to its ``--output`` file alone; a bad-input error met while the
    output is computed points to the command's help (not one met writing it)."""
    handler: Handler = args.handler
    try:
        text = handler(args)
    except InputError as err:
        raise _pointing_to_help(err, args.command) from None
    output: str | None = getattr(args, "output", None)
    if isinstance(text, bytes):  # a workbook: _parse made sure of its --output FILE
        assert output is not None
        with atomic_binary_file(output) as binary:
            binary.write(text)
        return
    pieces = [text] if isinstance(text, str) else _pointing(text, args.command)
    if output is not None:
        with atomic_file(output) as fh:
            fh.writelines(pieces)
    else:
        for piece in pieces:
            write_stdout(piece)


def _pointing(pieces: Iterator[str], command: str) -> Iterator[str]:
    """``pieces``, a bad-input error met while computing them pointing to the command's help."""
    try:
        yield from pieces
    except InputError as err:
        raise _pointing_to_help(err, command) from None


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output, or raise :class:`InputError` (one line, exit status 2) if it
    cannot take it: a full disk, a closed stdout, a broken pipe, an encoding that lacks a character."""
    stream = sys.stdout
    if stream is None:
        raise InputError("cannot write to standard output: it is closed")
    try:
        stream.write(text)
        stream.flush()
    except UnicodeEncodeError as err:
        _discard_stdout()
        bad = err.object[err.start:err.end][:8]
        raise InputError(f"cannot write to standard output: its encoding ({err.encoding}) has no {shown(bad)}; "
                         "set PYTHONIOENCODING=utf-8 or write to a file with --output") from None
    except (OSError, ValueError) as err:
        _discard_stdout()
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise InputError(f"cannot write to standard output: {why}") from None


def _discard_stdout() -> None:
    """Point standard output at the null device, so that the text still buffered is dropped at exit
    instead of failing a second time (with Python's "Exception ignored" message)."""
    stdout = sys.stdout
    if stdout is not sys.__stdout__ or stdout is None:
        return
    with suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stdout.fileno())
        os.close(null)


def _first_line(err: Exception) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def _pointing_to_help(err: InputError, command: str) -> InputError:
    """``err`` as one line ending in a pointer to the command's help (usage errors have one already)."""
    message = _first_line(err)
    return err if "--help')" in message else InputError(f"{message} (see '{PROG} {command} --help')")


def _say(message: str) -> None:
    """Print ``exact-odds: message`` on stderr, if there is a stderr that can take it."""
    if sys.stderr is not None:
        with suppress(OSError, ValueError):
            print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def _parse(words: list[str]) -> tuple[argparse.Namespace, Written]:
    """The command line parsed, and the files it writes; words no option of the command takes, two
    options naming one file or a binary format without --output are an error pointing to its help."""
    parser = build_parser(words[0] if words else None)
    args, extra = parser.parse_known_args(words)
    if extra:
        words_shown = " ".join(w if len(w) <= validate.SHOWN else validate.shown(w) for w in extra)
        raise InputError(f"unrecognized arguments: {words_shown} (see '{PROG} {args.command} --help')")
    written = _written_files(parser, args)
    _refuse_shared_files(written, args.command)
    fmt = getattr(args, "format", None)
    if fmt in BINARY_FORMATS and getattr(args, "output", None) is None:
        raise InputError(f"--format {fmt} writes a binary workbook, not text: give --output FILE "
                         f"(see '{PROG} {args.command} --help')")
    return args, written


BINARY_FORMATS = frozenset({"xlsx"})
"""Formats whose output is a file of bytes, never written to standard output."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (see the module). In a process that has not loaded NumPy
    yet, first one BLAS thread unless the user chose (:func:`exact_odds.study.workers.one_thread_unless_chosen`)."""
    if "numpy" not in sys.modules:
        one_thread_unless_chosen()
    with signals_end_cleanly():
        try:
            words = list(sys.argv[1:] if argv is None else argv)
            args, written = _parse(words)
            _run_command(args, written)
            status: int = getattr(args, "exit_status", 0)  # a handler may set 1 (e.g. a failed check)
        except KeyboardInterrupt:
            return _stopped(RECEIVED[0] if RECEIVED else signal.SIGINT)
        except Terminated as stop:
            return _stopped(stop.signum)
        except Exception as err:
            if RECEIVED:  # the signal's own error, turned into another on its way
                return _stopped(RECEIVED[0])
            if isinstance(err, MemoryError) or (isinstance(err, OSError) and err.errno == errno.ENOMEM):
                _say(f"error: out of memory: {_less(words)}")
                return 2
            if not isinstance(err, InputError):
                raise
            _say(f"error: {_first_line(err)}")
            return 2
    return status


LESS = {"study": "deal fewer --shoes, or smaller shoes",
        "count": "deal fewer --shoes, or smaller shoes",
        "simulate": "deal fewer --rounds or --shoes, or smaller shoes",
        "session": "ask for fewer --sessions or --hands",
        "batch": "give fewer compositions a run",
        "advantage": "ask of fewer bets or positions",
        "verify": "check a shorter log, or keep each shoe's coups together"}
"""What to reduce, by command, when a command runs out of memory."""


def _less(words: Sequence[str]) -> str:
    command = next((word for word in words if not word.startswith("-")), "")
    return LESS.get(command, "ask for less: fewer shoes, coups, rounds or decks")


def _stopped(signum: int) -> int:
    """Say why the command stopped (Ctrl-C, or a terminating signal); the exit status, 128 + ``signum``."""
    stopping()
    _say("interrupted" if signum == signal.SIGINT else f"terminated ({signal.Signals(signum).name})")
    return 128 + signum


def run() -> None:
    """:func:`main` as a whole process (the ``exact-odds`` script, ``python -m exact_odds``).

    ``gc.freeze()`` spares the interpreter's last collections a walk through every module and result
    (a tenth of a short command's time); in-process callers use :func:`main`.
    """
    status = main()
    gc.freeze()
    if signal.SIGINT in RECEIVED:
        exit_now(status)
    sys.exit(status)
