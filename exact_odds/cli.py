"""The ``exact-odds`` command line: argparse subcommands, no arithmetic.

``main(argv)`` returns the exit status: 0 on success, 2 on bad input (one line on
stderr, no traceback).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from exact_odds.errors import InputError

if TYPE_CHECKING:
    from exact_odds.shoe import Shoe
    from exact_odds.tableau import Tableau

PROG = "exact-odds"
Handler = Callable[[argparse.Namespace], str]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see '{self.prog} --help')")


# ---------------------------------------------------------------- shared options


def add_shoe_options(parser: argparse.ArgumentParser) -> None:
    """--decks / --shoe / --remove / --rules."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--decks", default="8", metavar="N",
                       help="number of 52-card decks, or 'inf' for the infinite-deck limit (default 8)")
    group.add_argument("--shoe", metavar="SPEC", help="composition by rank, e.g. A=32,2=32,...,K=32")
    parser.add_argument("--remove", metavar="CARDS", default="",
                        help="cards removed from the shoe, e.g. 5,5,K,9 or 'Kh 3d'")
    parser.add_argument("--rules", metavar="FILE", help="drawing rules (tableau) from a TOML file")


def add_format_options(parser: argparse.ArgumentParser, formats: Sequence[str] | None = None) -> None:
    """--format and --output."""
    from exact_odds.report import FORMATS

    choices = list(formats or FORMATS)
    parser.add_argument("--format", default="table", choices=choices, help="output format (default table)")
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE (atomically) instead of stdout")


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks/--shoe less --remove."""
    from exact_odds.shoe import Shoe, ShoeError, parse_cards

    if args.shoe is not None:
        shoe = Shoe.parse(args.shoe)
    elif str(args.decks).strip().lower() in ("inf", "infinite", "infinity"):
        shoe = Shoe.infinite_deck()
    else:
        text = str(args.decks).strip()
        if not text.isdigit() or int(text) < 1:
            raise ShoeError(f"--decks must be a whole number of at least 1 or 'inf', got {args.decks!r}")
        shoe = Shoe.decks(int(text))
    if args.remove.strip():
        shoe = shoe.without(parse_cards(args.remove))
    return shoe


def tableau_from_args(args: argparse.Namespace) -> Tableau:
    """The standard tableau, or the one loaded from --rules."""
    from exact_odds.tableau import STANDARD, load_tableau

    return load_tableau(args.rules) if args.rules else STANDARD


# ---------------------------------------------------------------- odds


def _cmd_odds(args: argparse.Namespace) -> str:
    from exact_odds.engine import deal, winners
    from exact_odds.report import odds_json, odds_table, render_json, render_tables

    shoe = shoe_from_args(args)
    dist = winners(deal(shoe, tableau_from_args(args)))
    counts = {k: dist[k] for k in ("banker", "player", "tie")}
    if args.format == "json":
        return render_json(odds_json(None if shoe.infinite else shoe.size, counts, dist.total))
    return render_tables([odds_table(str(shoe), counts, dist.total, infinite=shoe.infinite)], args.format)


def _add_odds(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("odds", help="exact banker, player and tie odds of a shoe",
                       description="Exact banker, player and tie odds of one coup from a shoe.")
    add_shoe_options(p)
    add_format_options(p, ["table", "markdown", "csv", "json", "latex"])
    p.set_defaults(handler=_cmd_odds)


# ---------------------------------------------------------------- entry point

SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[_Parser]], None], ...] = (_add_odds,)
"""Functions adding one subcommand each; a new command appends its own."""


def build_parser() -> _Parser:
    """The argument parser with every subcommand."""
    parser = _Parser(prog=PROG, description="Exact odds of casino games by full enumeration of the shoe.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
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
    except InputError as err:
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
