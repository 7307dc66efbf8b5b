"""Options shared by the commands, and turning them into library values; no arithmetic here.

Every command declares its options through these helpers, so that one option means one thing
everywhere; a single-valued option given twice is an error (:class:`Parser`). Each part of the game
is the command line's option, else the game's (``--game``), else the standard one
(:func:`effective_game` gathers them).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from exact_odds.bets import BUILTIN_BETS, BUILTIN_CONFIGURATIONS, configuration_from, load_bets
from exact_odds.bets.main import STANDARD_CONFIG
from exact_odds.core.shoe import Shoe, ShoeError, parse_cards
from exact_odds.core.tableau import STANDARD_TABLEAU, load_tableau
from exact_odds.dealing.procedure import STANDARD_PROCEDURE
from exact_odds.dealing.shuffle import random_seed
from exact_odds.engine.store import tableau_key
from exact_odds.game import STANDARD_GAME, load_game
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError, installed
from exact_odds.inputs.registry import name_key, nearest, unknown_name
from exact_odds.inputs.validate import shown
from exact_odds.report import document
from exact_odds.report.base import FORMATS, ProgressBar, render_json
from exact_odds.report.plots import save_figure, svg_text

if TYPE_CHECKING:
    from exact_odds.bets import Bet, Configuration, Registry
    from exact_odds.core.tableau import Tableau
    from exact_odds.dealing.procedure import Procedure
    from exact_odds.game import Game
    from exact_odds.report.base import Table


Output: TypeAlias = str | bytes
"""A command's whole output: text, or the bytes of a binary format (``xlsx``, written to ``--output`` only)."""

Handler = Callable[[argparse.Namespace], Output | Iterator[str]]
"""A command: its whole output, or its output piece by piece as it is computed (a long input)."""


HEADING = "examples:"
"""The first line of every command's epilog."""


def help_width() -> int:
    """The width a help is wrapped to, found as argparse finds it (``shutil.get_terminal_size().columns - 2``)
    without importing :mod:`shutil` (with its archive modules, a tenth of a short command's start)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    stdout = sys.__stdout__
    if columns <= 0:
        try:
            columns = 0 if stdout is None else os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter (every parser's, see :class:`Parser`), its width
    :func:`help_width`, an epilog of examples kept line for line."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, help_width() if width is None else width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return text if text.startswith(HEADING) else super()._fill_text(text, width, indent)


def examples(*lines: str) -> dict[str, Any]:
    """``add_parser`` keywords giving a command the example ``lines`` (each a whole command line, with
    an optional ``# comment`` after it) at the end of its help."""
    body = "\n".join(f"  {line}" for line in lines)
    return {"epilog": f"{HEADING}\n{body}"}


NEGATIVE_NUMBER = re.compile(r"^-(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:/[0-9]+)?$")
"""An argument that is a negative number (``-1``, ``-1e6``, ``-0.5``, ``-1/2``): a value of the option before it."""


_LONG_WORD = re.compile(rf"\S{{{validate.SHOWN + 1},}}")
"""A word of an argparse message longer than a message quotes a value whole (:data:`validate.SHOWN`)."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2, whose single-valued options
    may be given once (options that gather values use ``action="append"`` or ``"extend"``), and whose help
    is wrapped by :class:`HelpFormatter` unless another is given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        # A negative number is a value, never an option, in every spelling the numbers take (``-1e6``,
        # ``-0.5``, ``-1/2``), not only argparse's ``-1`` and ``-.5``: ``--thresholds 1e6 -1e6 0``.
        self._negative_number_matcher = NEGATIVE_NUMBER
        for name, action in _ONCE.items():  # argument groups share the parser's registry
            self.register("action", name, action)

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # ``--seed=--``: argparse (3.11) drops the '--' and gives the option no value at all ([]),
        # which no handler expects; it is an option without its value, as ``--seed --`` is.
        if action.option_strings and action.nargs not in (0, argparse.OPTIONAL) and arg_strings == ["--"]:
            many = action.nargs in (argparse.ONE_OR_MORE, argparse.ZERO_OR_MORE)
            raise argparse.ArgumentError(action, "expected at least one argument" if many else "expected one argument")
        return super()._get_values(action, arg_strings)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # A value that is none of the choices: one line suggesting the nearest (``sidebet``: ``sidebets``).
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(choice) for choice in choices]
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(None, unknown_name("command", str(value), names,
                                                            f" (choose from {', '.join(names)})"))
        close = nearest(str(value), names)
        if close is None:
            super()._check_value(action, value)  # argparse's own words, listing the choices
        raise argparse.ArgumentError(action, f"invalid choice: {shown(value)} (did you mean {close!r}?)")

    def error(self, message: str) -> NoReturn:
        # A bad number reads as every command and file words it: "--shoes must be a whole number ...".
        message = re.sub(r"^argument ([^\s/:]+)(?:/[^\s:]+)*: must ", r"\1 must ", message)
        # argparse quotes arguments whole ("unrecognized arguments: ...", "invalid choice: ..."): cut them short.
        message = _LONG_WORD.sub(lambda m: f"{m.group()[:validate.SHOWN_START]}… ({len(m.group()):,} characters)",
                                 message)
        raise InputError(f"{message} (see '{self.prog} --help')")


_GIVEN = "_options_given"
"""Namespace attribute: the single-valued options given so far, by destination, with the spelling used."""


class _Once(argparse.Action):
    """A single-valued action that refuses a second occurrence of its ``dest``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if option_string is not None:  # a positional argument: argparse gives it once
            given: dict[str, str] = namespace.__dict__.setdefault(_GIVEN, {})
            if self.dest in given:
                also = "" if given[self.dest] == option_string else f" (first as {given[self.dest]})"
                raise argparse.ArgumentError(None, f"argument {option_string}: given twice{also}; give it once")
            given[self.dest] = option_string
        super().__call__(parser, namespace, values, option_string)


class StoreOnce(_Once, argparse._StoreAction):
    """``action="store"``, once."""


class StoreConstOnce(_Once, argparse._StoreConstAction):
    """``action="store_const"``, once."""


class StoreTrueOnce(argparse._StoreTrueAction, StoreConstOnce):
    """``action="store_true"``, once."""


_ONCE: dict[str | None, type[argparse.Action]] = {
    None: StoreOnce, "store": StoreOnce, "store_const": StoreConstOnce, "store_true": StoreTrueOnce}
"""The single-valued actions, by the names ``add_argument(action=...)`` takes."""


Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"
"""What a family module adds its subcommands to."""


def add_shoe_options(parser: argparse.ArgumentParser) -> None:
    """--game / --decks / --shoe / --remove / --rules."""
    add(parser, "--game")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--decks", metavar="N",
                       help="number of 52-card decks, or 'inf' for the infinite-deck limit (default 8, or the "
                            "game's)")
    group.add_argument("--shoe", metavar="SPEC", help="composition by rank, e.g. A=32,2=32,...,K=32")
    parser.add_argument("--remove", metavar="CARDS", default="",
                        help="cards removed from the shoe, e.g. 5,5,K,9 or 'Kh 3d'")
    parser.add_argument("--rules", metavar="FILE", help="drawing rules (tableau) from a TOML file")


def add_format_options(parser: argparse.ArgumentParser, formats: Sequence[str] | None = None, *,
                       quiet: bool = False) -> None:
    """--format, --output and, where LaTeX is one of the formats, --latex-fragment; ``quiet``: --quiet first."""
    if quiet:
        add(parser, "--quiet")
    choices = list(formats or FORMATS)
    pages = "; html is one self-contained page, latex a whole document" if {"html", "latex"} <= set(choices) else ""
    pages += "; xlsx a workbook, one sheet a table (it needs --output FILE)" if "xlsx" in choices else ""
    parser.add_argument("--format", default="table", type=_format_name, choices=choices,
                        help=f"output format (default table, the plain text; 'text' is another name for it){pages}")
    if "latex" in choices:
        parser.add_argument("--latex-fragment", action="store_true",
                            help="with --format latex: only the tables, to include in a document of one's own "
                                 "(it needs the booktabs and longtable packages)")
    add(parser, "--output")


def _format_name(name: str) -> str:
    return "table" if name == "text" else name  # the plain format has one name everywhere


def _file_or_stdout(text: str) -> str | None:
    return None if text == "-" else text


GAME_HELP = ("a casino's game from a TOML file: shoe, tableau, pay table, side bets and dealing procedure "
             "(see examples/games/)")

SHARED: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    # --game: the options given beside it replace its parts (its help names them: cli._name_game_parts)
    "--game": (("--game",), {"metavar": "FILE", "help": GAME_HELP}),
    "--output": (("--output", "-o"), {"type": _file_or_stdout, "metavar": "FILE",
                                      "help": "write to FILE (atomically) instead of stdout ('-': stdout)"}),
    "--quiet": (("--quiet", "-q"), {"action": "store_true", "help": "no progress bar and no 'wrote FILE' lines"}),
    "--seed": (("--seed",), {"type": validate.SEED.option, "metavar": "S",
                             "help": "seed of the random generator (default: chosen at random and printed)"}),
    "--bets": (("--bets",), {"dest": "bet_files", "action": "append", "default": [], "metavar": "FILE",
                             "help": "also load the side bets defined in this TOML file (repeatable); "
                                     "see examples/side_bets.toml"}),
    "--known": (("--known",), {
        "action": "append", "default": [], "metavar": "SPEC", "type": validate.spec_option,
        "help": "what is known of the next coup's cards: POSITION=CARDS, several separated by spaces or commas. "
                "Positions 1-6 in dealing order (1 P1, 2 B1, 3 P2, 4 B2, 5 the fifth card, 6 the sixth; "
                "P1 B1 P2 B2 also work); cards a rank (7), a card with its suit (7h), or alternatives with | "
                "(7|8|9). E.g. '1=7', '5=7h', '1=7|8|9 2=K'. A position is that card of the shoe, used by the coup "
                "or not"}),
}
"""The options several commands share alike: their spellings and ``add_argument`` keywords, by name."""


def add(parser: argparse.ArgumentParser, *names: str) -> None:
    """Add the shared options ``names`` (:data:`SHARED`) to ``parser``, in that order."""
    for name in names:
        flags, keywords = SHARED[name]
        parser.add_argument(*flags, **keywords)


def render(args: argparse.Namespace, as_json: Callable[[], object], tables: Callable[[], Sequence[Table] | str], *,
           figures: Callable[[], Sequence[document.Figure]] | None = None, **given: Any) -> Output:
    """A command's output in its --format, headed by its provenance (:func:`provenance_from_args`, with the
    parts in ``given``): the JSON of ``as_json()``, the ``tables()`` as a workbook (``xlsx``, bytes) or as a
    document, or a drawing or a story (``deal``, ``roads``: ``tables()`` a text). An HTML page also shows the
    ``figures()`` (drawn only for it, when matplotlib is installed)."""
    provenance = provenance_from_args(args, **given)
    if args.format == "json":
        return render_json(document.with_provenance(as_json(), provenance))
    fragment = bool(getattr(args, "latex_fragment", False))
    if fragment and args.format != "latex":
        raise InputError("--latex-fragment needs --format latex")
    content = tables()
    if isinstance(content, str):
        return document.render_text_document(content, args.format, provenance)
    if args.format == "xlsx":
        return document.workbook_bytes(content, provenance)
    drawn = figures() if figures is not None and args.format == "html" and installed("matplotlib") else ()
    return document.render_document(content, args.format, provenance, figures=drawn, fragment=fragment)


def figures(args: argparse.Namespace, title: str, draw: Callable[[], Any]) -> Callable[[], list[document.Figure]]:
    """The figures of an HTML page: one drawing, ``draw()`` (of :mod:`exact_odds.report.plots`) made only for
    the page; saved first to the command's --plot FILE, if given."""
    if getattr(args, "plot", None):
        save_figure(draw(), args.plot)
    return lambda: [document.Figure(title, svg_text(draw()))]


def failed_if(args: argparse.Namespace, failed: bool) -> None:
    """A failed check: the command's exit status is 1."""
    if failed:
        args.exit_status = 1


def seed_from_args(args: argparse.Namespace) -> int:
    """--seed, else a seed drawn at random; kept in ``args.seed``, so that the provenance names it."""
    if args.seed is None:
        args.seed = random_seed()
    seed: int = args.seed
    return seed


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks/--shoe (else the game's, else 8 decks) less --remove."""
    game = game_from_args(args)
    if args.shoe is not None:
        shoe = Shoe.parse(args.shoe)
    elif args.decks is None:
        shoe = game.shoe if game is not None else Shoe.decks(8)
    else:
        decks = validate.decks(str(args.decks), "--decks", ShoeError)
        shoe = Shoe.infinite_deck() if decks is None else Shoe.decks(decks)
    if args.remove.strip():
        shoe = shoe.without(parse_cards(args.remove))
    return shoe


def tableau_from_args(args: argparse.Namespace) -> Tableau:
    """The tableau loaded from --rules, else the game's, else the standard one."""
    game = game_from_args(args)
    if args.rules is not None:  # --rules '' is refused, not ignored
        return load_tableau(args.rules)
    return game.tableau if game is not None else STANDARD_TABLEAU


def add_config_option(parser: argparse.ArgumentParser, what: str, *, bets: bool = False) -> None:
    """--config NAME|FILE, its help opening with ``what``; ``bets``: then --bets FILE."""
    parser.add_argument("--config", metavar="NAME|FILE",
                        help=f"{what}: a configuration (standard, tie-9, commission-4, super-6, ez) or a TOML "
                             "file with a casino's pay table")
    if bets:
        add(parser, "--bets")


def configs_from_args(args: argparse.Namespace) -> list[Configuration]:
    """The configuration of --config (else the game's), or every built-in one."""
    config = config_from_args(args)
    return [config] if config is not None else list(BUILTIN_CONFIGURATIONS.values())


def config_from_args(args: argparse.Namespace) -> Configuration | None:
    """The one pay table of the main bets: --config (a name or a file), else the game's; None if neither."""
    game = game_from_args(args)
    if getattr(args, "config", None) is not None:  # --config '' is refused, not ignored
        return configuration_from(args.config)
    return game.configuration if game is not None else None


def add_procedure_options(parser: argparse.ArgumentParser, *, fresh: bool = True) -> None:
    """--fresh / --cut-card / --last-coup / --no-burn: how the cards reach the table (read back by
    :func:`procedure_from_args`). Commands that deal whole shoes only pass ``fresh=False``."""
    if fresh:
        parser.add_argument("--fresh", action="store_true",
                            help="deal every coup from a freshly shuffled full shoe (no burn, no cut card)")
    else:
        parser.set_defaults(fresh=False)
    parser.add_argument("--cut-card", dest="cut", type=validate.CUT_CARD.option, metavar="N",
                        help="cards behind the cut card (default 16, or the game's; 7 with --last-coup this is "
                             "the 'seventh-last card' procedure)")
    parser.add_argument("--last-coup", choices=["one-more", "this"],
                        help="when the cut card comes out: finish the coup and deal one more (default, unless "
                             "the game says otherwise), or finish the coup and end the shoe")
    parser.add_argument("--no-burn", action="store_true", default=None,
                        help="skip the burn at the start of each shoe")


def procedure_from_args(args: argparse.Namespace) -> Procedure:
    """The dealing procedure of :func:`add_procedure_options`; each option not given is the game's
    (else the standard procedure's)."""
    game = game_from_args(args)
    base = game.procedure if game is not None else STANDARD_PROCEDURE
    cut, last_coup, no_burn = (getattr(args, name, None) for name in ("cut", "last_coup", "no_burn"))
    return replace(base, fresh=getattr(args, "fresh", False), cut=base.cut if cut is None else cut,
                   last_coup=base.last_coup if last_coup is None else last_coup,
                   burn=base.burn if no_burn is None else not no_burn)


_ALL_CONFIGURATIONS = frozenset({"edges", "report", "symbolic"})
"""Commands that show every built-in configuration unless --config (or a game) names one."""


def provenance_from_args(args: argparse.Namespace, **given: Any) -> document.Provenance:
    """What produced a command's output: its tableau, configuration, shoe, procedure and seed as the
    command's options give them (None where it has none); ``given`` replaces a part (``shoe=None``)."""
    parts: dict[str, Any] = {"command": args.command, "seed": getattr(args, "seed", None)}
    if hasattr(args, "rules"):
        tableau = tableau_from_args(args)
        parts["tableau"] = (tableau.name, tableau_key(tableau))
    if hasattr(args, "config"):
        config = config_from_args(args)
        default = None if args.command in _ALL_CONFIGURATIONS else "standard"
        parts["configuration"] = config.name if config is not None else default
    if hasattr(args, "decks"):
        parts["shoe"] = document.shoe_json(shoe_from_args(args))
    if hasattr(args, "no_burn"):
        procedure = procedure_from_args(args)
        parts["procedure"] = document.procedure_json(procedure)
        parts["procedure_text"] = procedure.describe()
    parts.update(given)
    if parts.get("procedure") is None and "procedure_text" not in given:
        parts["procedure_text"] = None
    return document.Provenance(**parts)


def progress_bar(args: argparse.Namespace, label: str, *, unit: str | None = None) -> ProgressBar:
    """A progress bar on stderr, shown only on a terminal and without --quiet; cleared when its block ends."""
    return ProgressBar(sys.stderr, label, enabled=sys.stderr.isatty() and not args.quiet, unit=unit)


def add_bet_option(parser: argparse.ArgumentParser, help: str) -> None:
    """--bet NAME ...: bet names, several after one --bet or comma-separated, and --bet repeated; they add up."""
    parser.add_argument("--bet", action="extend", nargs="+", default=[], metavar="NAME", type=validate.spec_option,
                        help=help)


@dataclass(frozen=True, slots=True)
class CommandBets:
    """The bets one command knows: ``known``, the built-in ones, the game's and those of its --bets files
    (``loaded``, alone); ``configuration``, the pay table of --config or the game (the bets banker, player
    and tie mean); ``side``, the game's side bets (None without a game)."""

    known: Registry[Bet]
    loaded: tuple[Bet, ...]
    configuration: Configuration | None = None
    side: tuple[Bet, ...] | None = None

    @property
    def main(self) -> list[Bet]:
        """The banker, player and tie bets: the configuration's, else the standard ones."""
        return list((self.configuration or STANDARD_CONFIG).bets)

    def find(self, name: str) -> Bet:
        """The bet called ``name``: with a configuration, banker, player and tie (and the configuration's
        own names) are its bets; a qualified name (``tie-9/tie``) is that bet."""
        config = self.configuration
        if config is None:
            return self.known.find(name)
        if name_key(name) in (name_key(bet.name) for bet in config.bets):
            return config.bet(name)
        try:
            bet = self.known.find(name)
        except InputError as err:
            raise type(err)(f"configuration {shown(config.name)} has no bet {shown(name)} "
                            f"(its bets: banker, player, tie); {err}") from None
        standard = STANDARD_CONFIG.bets
        return config.bets[standard.index(bet)] if bet in standard and "/" not in name else bet

    def named(self, values: Sequence[str]) -> list[Bet]:
        """Bets named in --bet values, as :meth:`find`."""
        return [self.find(name) for name in bet_names(values)]


def bets_from_args(args: argparse.Namespace, *, files: Sequence[str] | None = None) -> CommandBets:
    """The bets a command knows: the built-in ones, the game's and those of every --bets FILE (or of
    ``files``) on its own command line, whatever ran before in the process. A file may not reuse a name."""
    game = game_from_args(args)
    known = BUILTIN_BETS.extended(game.defined) if game is not None else BUILTIN_BETS
    loaded: list[Bet] = []
    for path in getattr(args, "bet_files", []) if files is None else files:
        bets = load_bets(path, joining=known)
        known = known.extended(bets)
        loaded += [bet for bet in bets if bet not in loaded]  # a file given twice counts once
    return CommandBets(known, tuple(loaded), config_from_args(args), None if game is None else game.side_bets)


_LOADED_GAME = "_loaded_game"
"""Namespace attribute: the game of --game, read once per command line."""


def game_from_args(args: argparse.Namespace) -> Game | None:
    """The game of --game as its file gives it (None without --game)."""
    path = getattr(args, "game", None)
    if path is None:
        return None
    game: Game | None = getattr(args, _LOADED_GAME, None)
    if game is None:
        game = load_game(path)
        setattr(args, _LOADED_GAME, game)
    return game


def effective_game(args: argparse.Namespace) -> Game:
    """The game a command plays: that of --game (else the standard one) with each part the command line
    gives in its place; the bets of --bets files join its side bets."""
    game = game_from_args(args) or STANDARD_GAME
    choice = bets_from_args(args)
    side = (*game.side_bets, *(bet for bet in choice.loaded if bet not in game.side_bets))
    return replace(game, shoe=shoe_from_args(args), tableau=tableau_from_args(args),
                   configuration=choice.configuration or game.configuration, side_bets=side,
                   procedure=procedure_from_args(args))


def add_input_option(parser: argparse.ArgumentParser, help: str, *, old: str | None = None) -> None:
    """--input / -i FILE ('-': standard input), and the option's ``old`` name as a hidden alias."""
    parser.add_argument("--input", "-i", metavar="FILE", help=help)
    if old is not None:
        add_hidden_alias(parser, old, "input")


def add_hidden_alias(parser: argparse._ActionsContainer, option: str, dest: str, **kwargs: Any) -> None:
    """An old name of an option, kept working but left out of --help (giving both is giving it twice)."""
    parser.add_argument(option, dest=dest, help=argparse.SUPPRESS, default=argparse.SUPPRESS, **kwargs)


def bet_names(values: Sequence[str], option: str = "--bet") -> list[str]:
    """The names in --bet values, each comma-separated; an empty name (``--bet=,``) is refused, never
    read as no bet at all (which would be the default bets)."""
    names = [name.strip() for value in values for name in value.split(",")]
    if "" in names:
        empty = next(value for value in values if "" in (name.strip() for name in value.split(",")))
        raise InputError(f"{option} {validate.shown(empty)} names an empty bet (write names comma-separated, "
                         "e.g. banker,player)")
    return names
