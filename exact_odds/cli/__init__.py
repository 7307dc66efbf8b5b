"""The ``exact-odds`` command line: argparse subcommands by family, no arithmetic, no policy.

``main(argv)`` returns the exit status: 0 on success, 1 when a check fails, 2 on bad
input (one line on stderr, no traceback), 130 when interrupted.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from exact_odds.cli import bunco, reference, simulation, study
from exact_odds.cli.options import Handler, Parser
from exact_odds.errors import InputError

PROG = "exact-odds"

SUBCOMMANDS = (*reference.COMMANDS, *simulation.COMMANDS, *bunco.COMMANDS, *study.COMMANDS)
"""Functions adding one subcommand each, in the order of the help."""


def build_parser() -> Parser:
    """The argument parser with every subcommand."""
    parser = Parser(prog=PROG, description="Exact odds of casino games by full enumeration of the shoe.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def _emit(text: str, output: str | None) -> None:
    if output:
        from exact_odds.report import write_atomic

        write_atomic(output, text)
    else:
        sys.stdout.write(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        handler: Handler = args.handler
        _emit(handler(args), getattr(args, "output", None))
        status: int = getattr(args, "exit_status", 0)  # a handler may set 1 (e.g. a failed check)
    except InputError as err:
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    return status

