"""Options shared by the commands, and turning them into library values; no arithmetic here.

Every command declares its options through these helpers so that one option means one
thing everywhere.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn, TypeAlias

from exact_odds.errors import InputError

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.bets.main import Configuration
    from exact_odds.report import ProgressBar, Table
    from exact_odds.shoe import Shoe
    from exact_odds.simulate import Procedure
    from exact_odds.tableau import Tableau

Handler = Callable[[argparse.Namespace], str]


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see '{self.prog} --help')")


Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"
"""What a family module adds its subcommands to."""

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
    add_output_option(parser)


def add_output_option(parser: argparse.ArgumentParser) -> None:
    """--output / -o FILE."""
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE (atomically) instead of stdout")


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """--quiet / -q: no progress bar."""
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def add_text_format_options(parser: argparse.ArgumentParser) -> None:
    """--format text|json and --output, for commands whose output is a drawing or a story, not a table."""
    parser.add_argument("--format", default="text", choices=["text", "json"], help="output format (default text)")
    add_output_option(parser)


def render(args: argparse.Namespace, as_json: Callable[[], object], tables: Callable[[], Sequence[Table]]) -> str:
    """A command's output in its --format: the JSON of ``as_json()``, or the ``tables()`` rendered."""
    from exact_odds.report import render_json, render_tables

    if args.format == "json":
        return render_json(as_json())
    return render_tables(tables(), args.format)


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
    from exact_odds.tableau import STANDARD_TABLEAU, load_tableau

    return load_tableau(args.rules) if args.rules else STANDARD_TABLEAU


def add_config_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--config", metavar="NAME|FILE",
                        help=f"{what}: a configuration (standard, tie-9, commission-4, super-6, ez) or a TOML "
                             "file with a casino's pay table")


def configs_from_args(args: argparse.Namespace) -> list[Configuration]:
    """The configuration of --config, or every registered one."""
    from exact_odds.bets.main import CONFIGURATIONS, configuration_from

    return [configuration_from(args.config)] if args.config else list(CONFIGURATIONS.values())


def add_seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, metavar="S",
                        help="seed of the random generator (default: chosen at random and printed)")


def add_procedure_options(parser: argparse.ArgumentParser, *, fresh: bool = True) -> None:
    """--fresh / --cut-card / --last-coup / --no-burn: how the cards reach the table."""
    if fresh:
        parser.add_argument("--fresh", action="store_true",
                            help="deal every coup from a freshly shuffled full shoe (no burn, no cut card)")
    else:
        parser.set_defaults(fresh=False)
    parser.add_argument("--cut-card", dest="cut", type=int, default=16, metavar="N",
                        help="cards behind the cut card (default 16; 7 with --last-coup this is the "
                             "'seventh-last card' procedure)")
    parser.add_argument("--last-coup", choices=["one-more", "this"], default="one-more",
                        help="when the cut card comes out: finish the coup and deal one more (default), "
                             "or finish the coup and end the shoe")
    parser.add_argument("--no-burn", action="store_true", help="skip the burn at the start of each shoe")


def procedure_from_args(args: argparse.Namespace) -> Procedure:
    from exact_odds.simulate import Procedure

    return Procedure(fresh=args.fresh, cut=args.cut, last_coup=args.last_coup, burn=not args.no_burn)


def progress_bar(args: argparse.Namespace, label: str, *, unit: str | None = None) -> ProgressBar:
    """A progress bar on stderr: shown only on a terminal and without --quiet."""
    from exact_odds.report import ProgressBar

    return ProgressBar(sys.stderr, label, enabled=sys.stderr.isatty() and not args.quiet, unit=unit)


def add_bets_option(parser: argparse.ArgumentParser) -> None:
    """--bets FILE (repeatable): side bets defined in a TOML file, registered for this run."""
    parser.add_argument("--bets", dest="bet_files", action="append", default=[], metavar="FILE",
                        help="also load the side bets defined in this TOML file (repeatable); "
                             "see examples/side_bets.toml")


def bets_from_args(args: argparse.Namespace) -> list[Bet]:
    """Load and register the bets of every --bets FILE, so --bet NAME finds them; returns them."""
    from exact_odds.bets import load_bets

    return [bet for path in args.bet_files for bet in load_bets(path)]


def bet_names(values: Sequence[str]) -> list[str]:
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def named_bets(values: Sequence[str]) -> list[Bet]:
    """Bets named in --bet values (repeatable, several names each, or comma-separated)."""
    from exact_odds.bets import find_bet

    return [find_bet(name) for name in bet_names(values)]


def read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as err:
        raise InputError(f"cannot read {path!r}: {err.strerror}") from None

