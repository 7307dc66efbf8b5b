"""``exact-odds completion SHELL``: the shell's completion script for every command, option and choice,
written by ``shtab`` from the parser itself; file options complete file names, ``--bet`` the built-in bets."""

from __future__ import annotations

import argparse

import shtab

from exact_odds.bets import BUILTIN_BETS
from exact_odds.cli import build_parser, command_parsers, options

SHELLS = ("bash", "zsh", "tcsh")
"""The shells a script is written for."""

FILE_METAVARS = ("FILE", "LOG", "FILE.png", "NAME|FILE")
"""Metavars of the arguments that name a file, which complete file names."""


BET_FUNCTION = "_exact_odds_compgen_bets"
"""The bash function that completes a built-in bet's name."""


def _bet_completion() -> tuple[dict[str, str], dict[str, str]]:
    """How each shell completes a --bet value (the built-in bets' names), and the bash function it needs."""
    names = " ".join(bet.name for bet in BUILTIN_BETS.values())
    return ({"bash": BET_FUNCTION, "zsh": f"({names})", "tcsh": f"({names})"},
            {"bash": f'{BET_FUNCTION}() {{\n  compgen -W "{names}" -- "$1"\n}}\n'})


def cmd_completion(args: argparse.Namespace) -> str:
    parser = build_parser()
    bets, preamble = _bet_completion()
    for command in [parser, *command_parsers(parser)]:
        for action in command._actions:
            if action.metavar in FILE_METAVARS:
                action.complete = shtab.FILE  # type: ignore[attr-defined]
            elif "--bet" in action.option_strings:
                action.complete = bets  # type: ignore[attr-defined]
    script: str = shtab.complete(parser, shell=args.shell, preamble=preamble.get(args.shell, ""))
    lines = [f"# Completion of {parser.prog} for {args.shell}, written by '{parser.prog} completion {args.shell}'."
             if line.startswith("# AUTOMATICALLY GENERATED") else line for line in script.splitlines()]
    return "\n".join(lines) + "\n"


def add_completion(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "completion", help="print the shell completion script (bash, zsh or tcsh)",
        description="Print a completion script for the shell: subcommands, options, their choices and file "
                    "names complete on TAB. Load it in the current bash with `source <(exact-odds completion "
                    "bash)`; for every new shell, save it where the script's first lines say (for zsh, as a file "
                    "named _exact-odds in a directory of $fpath).",
        **options.examples("exact-odds completion bash",
                           "exact-odds completion zsh --output _exact-odds"))
    p.add_argument("shell", choices=SHELLS, help="the shell: bash, zsh or tcsh")
    options.add(p, "--output")
