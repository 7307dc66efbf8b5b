"""Tables and JSON of ``chemin-de-fer``: the value, both sides' optimal strategies, their certificate, and
what each wrong choice costs.

The Banker's strategy is printed as the tableau is (rows: his total or two cards; columns: the Player
stood, then the Player's third card 0-9): ``D`` draws, ``S`` stands, a fraction the chance of drawing,
``.`` either.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from exact_odds.analysis.banque import NATURAL, PAIRS, BanqueGame, BanqueSet, Cooperative, State
from exact_odds.analysis.chemin import ChoiceGame, Cost, Equilibria, Equilibrium, Hand, Solution, costs, model_code
from exact_odds.core.choices import HANDS, TOTALS, pair_text, total
from exact_odds.core.tableau import COLUMNS
from exact_odds.report.base import Cell, Table, decimal_text, for_people, fraction_text, percent_cell, yes_no
from exact_odds.report.document import shoe_json
from exact_odds.study.chemin import CoupSolution

PLAYER_EV_NOTE = ("player_ev: the Player's expectation per coup of the parlour game (he wins 1, loses 1, a tie "
                  "pushes); the Banker's is its opposite.")
COLUMNS_NOTE = "Columns: the Player stood (-), then the Player's third card 0-9. D draws, S stands, a fraction is " \
               "the chance of drawing, '.' either (the set is never reached, or both choices are worth the same)."
BANKER_HEADERS = ["banker", "-", *map(str, range(10))]


def hand_text(hand: Hand) -> str:
    """A total as ``5``, two cards as ``1+4``."""
    return str(hand) if isinstance(hand, int) else pair_text(hand)


def _column_text(column: int | None) -> str:
    return "stood" if column is None else str(column)


def _draw_text(q: Fraction | None) -> str:
    if q is None:
        return "."
    return {Fraction(1): "D", Fraction(0): "S"}.get(q, fraction_text(q))


def _decimal(x: Fraction, fmt: str) -> Cell:
    return decimal_text(x, 4) if for_people(fmt) else x


def _certified(holds: bool) -> str:
    return "yes" if holds else "NO"


def _model_rows(game: ChoiceGame) -> list[list[Cell]]:
    return [["model", f"{game.model}: {'with replacement' if game.shoe.infinite else 'from the shoe'}; "
                      f"{game.information.description}"], ["rules", game.rules.name]]


def _summary(solution: Solution, fmt: str) -> Table:
    game = solution.game
    rows: list[list[Cell]] = [
        *_model_rows(game),
        ["value (player_ev)", percent_cell(solution.value, fmt)],
        ["value, exactly", fraction_text(solution.value)],
        ["certified (each strategy a best reply to the other)", _certified(solution.certificate.holds)],
        ["Player's optimal strategy unique", yes_no(solution.player_unique)],
        ["Banker's optimal strategy unique", yes_no(solution.banker_unique)],
    ]
    return Table(f"Chemin de fer, model {game.model}, {game.shoe}", ["figure", "value"], rows,
                 (PLAYER_EV_NOTE,))


def _player_table(solution: Solution, found: Sequence[Cost], fmt: str) -> Table:
    game = solution.game
    by_hand = {c.hand: c for c in found if c.side == "player"}
    rows: list[list[Cell]] = [[hand_text(hand), _draw_text(x), _decimal(x, fmt), percent_cell(by_hand[hand].draw, fmt),
                               percent_cell(by_hand[hand].stand, fmt)]
                              for hand, x in zip(game.player_sets, solution.player, strict=True)]
    headers = ["player", "draws", "chance of drawing", "cost of always drawing", "cost of always standing"]
    return Table(f"Player's optimal strategy, model {game.model}, {game.shoe}", headers, rows,
                 ("Costs: the value less what the Banker's best reply holds that habit to, per coup.",))


def tableau_rows(game: ChoiceGame, banker: Sequence[Fraction | None]) -> list[tuple[str, list[str]]]:
    """A Banker strategy (a drawing probability per set of ``game``) as tableau rows: one per total, or per
    two cards where the cards of a total are played differently."""
    cells: dict[Hand, list[str]] = {}
    for bset, q in zip(game.banker_sets, banker, strict=True):
        cells.setdefault(bset.hand, ["."] * len(COLUMNS))[COLUMNS.index(bset.column)] = _draw_text(q)
    if not game.information.banker_sees_cards:
        return [(str(t), cells[t]) for t in TOTALS if t in cells]
    rows: list[tuple[str, list[str]]] = []
    for t in TOTALS:
        hands = [h for h in HANDS if total(h) == t and h in cells]
        distinct = {tuple(cells[h]) for h in hands}
        if len(distinct) == 1:
            rows.append((str(t), cells[hands[0]]))
        else:
            rows += [(f"{t} ({pair_text(h)})", cells[h]) for h in hands]
    return rows


def _tableau_table(title: str, game: ChoiceGame, banker: Sequence[Fraction | None]) -> Table:
    rows: list[list[Cell]] = [[label, *cells] for label, cells in tableau_rows(game, banker)]
    return Table(f"{title}, model {game.model}, {game.shoe}", BANKER_HEADERS, rows, (COLUMNS_NOTE,))


def _banker_costs(solution: Solution, found: Sequence[Cost], fmt: str) -> Table:
    game = solution.game
    cells: dict[Hand, list[Cell]] = {}
    for cost in found:
        if cost.side == "banker":
            wrong = max(cost.draw, cost.stand)
            cells.setdefault(cost.hand, ["."] * len(COLUMNS))[COLUMNS.index(cost.column)] = percent_cell(wrong, fmt)
    rows: list[list[Cell]] = [[hand_text(h), *row] for h, row in cells.items()]
    return Table(f"What the Banker's wrong choice costs, model {game.model}, {game.shoe}", BANKER_HEADERS, rows,
                 ("The Player's gain per coup when the Banker takes the other choice in that cell alone (a mixed "
                  "cell: the worse pure choice), against the Player's optimal strategy; '.' a fixed or "
                  "indifferent cell.",))


def chemin_tables(solution: Solution, fmt: str, *, with_costs: bool = False) -> list[Table]:
    """The summary, both sides' strategies (the Banker's as a tableau), and ``with_costs`` what his wrong
    choices cost."""
    found = costs(solution)
    tables = [_summary(solution, fmt)]
    if solution.game.player_sets:
        tables.append(_player_table(solution, found, fmt))
    tables.append(_tableau_table("Banker's optimal strategy", solution.game, solution.banker))
    if with_costs:
        tables.append(_banker_costs(solution, found, fmt))
    return tables


def game_json(game: ChoiceGame) -> dict[str, object]:
    """What a game's JSON opens with: its model, information, shoe and rules."""
    return {"model": model_code(game.shoe, game.information), "information": game.information.description,
            "with_replacement": game.shoe.infinite, "shoe": shoe_json(game.shoe), "rules": game.rules.name}


def chemin_json(solution: Solution) -> dict[str, object]:
    """The ``chemin-de-fer --format json`` object; every figure an exact ``num/den`` string."""
    game = solution.game
    found = costs(solution)
    player_costs = {c.hand: c for c in found if c.side == "player"}
    cert = solution.certificate
    return {
        **game_json(game),
        "value": fraction_text(solution.value),
        "player": [{"hand": hand_text(h), "draw": fraction_text(x),
                    "cost_always_draw": fraction_text(player_costs[h].draw),
                    "cost_always_stand": fraction_text(player_costs[h].stand)}
                   for h, x in zip(game.player_sets, solution.player, strict=True)],
        "banker": _banker_json(game, solution.banker, {(c.hand, c.column): c for c in found if c.side == "banker"}),
        "player_unique": solution.player_unique, "banker_unique": solution.banker_unique,
        "certificate": {"expectation": fraction_text(cert.expectation),
                        "banker_best_reply": fraction_text(cert.banker_best_reply),
                        "player_best_reply": fraction_text(cert.player_best_reply), "holds": cert.holds},
    }


def _banker_json(game: ChoiceGame, banker: Sequence[Fraction | None],
                 costs: dict[tuple[Hand, int | None], Cost] | None = None) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for b, q in zip(game.banker_sets, banker, strict=True):
        entry: dict[str, object] = {"hand": hand_text(b.hand), "column": _column_text(b.column),
                                    "draw": None if q is None else fraction_text(q), "free": b.decision is None}
        if costs is not None:
            cost = costs.get((b.hand, b.column))
            entry.update(cost_draw=None if cost is None else fraction_text(cost.draw),
                         cost_stand=None if cost is None else fraction_text(cost.stand))
        out.append(entry)
    return out


# ---------------------------------------------------------------- the value by the number of decks

DECKS_NOTE = ("Each row is one shoe solved on its own (as --decks N would); the infinite deck is model A, the "
              "limit as the decks grow. Player draws on 5: his chance of drawing in each of his free "
              "information sets; Banker mixes: each cell where his optimal strategy draws with a chance "
              "between 0 and 1.")


def player_draws_text(game: ChoiceGame, player: Sequence[Fraction]) -> str:
    """The Player's drawing probabilities: ``9/11`` for one set, ``0+5 D, 1+4 1/19, ...`` for several."""
    if len(game.player_sets) == 1:
        return fraction_text(player[0])
    return ", ".join(f"{hand_text(h)} {_draw_text(x)}" for h, x in zip(game.player_sets, player, strict=True))


def mixed_cells(game: ChoiceGame, banker: Sequence[Fraction | None]) -> list[tuple[Hand, int | None, Fraction]]:
    """The Banker's cells where his strategy draws with a chance strictly between 0 and 1."""
    return [(b.hand, b.column, q) for b, q in zip(game.banker_sets, banker, strict=True)
            if q is not None and 0 < q < 1]


def _mixed_text(game: ChoiceGame, banker: Sequence[Fraction | None]) -> str:
    cells = mixed_cells(game, banker)
    return "; ".join(f"{hand_text(h)} against {_column_text(c)}: {fraction_text(q)}" for h, c, q in cells) or "none"


def _player_json(game: ChoiceGame, player: Sequence[Fraction]) -> list[dict[str, object]]:
    return [{"hand": hand_text(h), "draw": fraction_text(x)} for h, x in zip(game.player_sets, player, strict=True)]


def _mixed_json(game: ChoiceGame, banker: Sequence[Fraction | None]) -> list[dict[str, object]]:
    return [{"hand": hand_text(h), "column": _column_text(c), "draw": fraction_text(q)}
            for h, c, q in mixed_cells(game, banker)]


def decks_tables(solutions: Sequence[Solution], fmt: str) -> list[Table]:
    """One row per shoe and model: the value, the Player's drawing probabilities on 5, the Banker's mixed cells."""
    rows: list[list[Cell]] = [
        ["∞" if s.game.shoe.infinite else str(s.game.shoe.size // 52), s.game.model, percent_cell(s.value, fmt),
         fraction_text(s.value), player_draws_text(s.game, s.player), _mixed_text(s.game, s.banker),
         yes_no(s.player_unique and s.banker_unique), _certified(s.certificate.holds)] for s in solutions]
    headers = ["decks", "model", "value (player_ev)", "value, exactly", "Player draws on 5", "Banker mixes",
               "unique", "certified"]
    rules = solutions[0].game.rules.name if solutions else ""
    return [Table(f"Chemin de fer by the number of decks ({rules})", headers, rows, (PLAYER_EV_NOTE, DECKS_NOTE))]


def decks_json(solutions: Sequence[Solution]) -> dict[str, object]:
    """The ``chemin-de-fer --decks-table D --format json`` object; every figure an exact ``num/den`` string."""
    return {
        "rules": solutions[0].game.rules.name if solutions else "",
        "solutions": [{
            "decks": None if s.game.shoe.infinite else s.game.shoe.size // 52, "model": s.game.model,
            "value": fraction_text(s.value), "player": _player_json(s.game, s.player),
            "banker_mixed": _mixed_json(s.game, s.banker), "player_unique": s.player_unique,
            "banker_unique": s.banker_unique, "certified": s.certificate.holds,
        } for s in solutions],
    }


# ---------------------------------------------------------------- the casino game, with a commission

COMMISSION_NOTE = ("player_ev: the Player's expectation per coup (he wins 1, loses 1, a tie pushes); banker_ev: "
                   "the Banker's, the commission on his wins paid; house's take: the commission collected per "
                   "coup, -(player_ev + banker_ev).")


def _commission_summary(found: Equilibria, fmt: str) -> Table:
    game = found.game.player
    rows: list[list[Cell]] = [
        *_model_rows(game),
        ["commission on the Banker's wins", percent_cell(found.game.commission, fmt)],
        ["Nash equilibria", str(len(found.equilibria)) + (", and every point between them" if found.continuum
                                                          else "")],
        ["unique", yes_no(found.unique)],
    ]
    return Table(f"Chemin de fer with a commission, model {game.model}, {game.shoe}", ["figure", "value"], rows,
                 (COMMISSION_NOTE,))


def _equilibria_table(found: Equilibria, fmt: str) -> Table:
    game = found.game.player
    rows: list[list[Cell]] = [[str(n), player_draws_text(game, e.player), _mixed_text(game, e.banker),
                               *(percent_cell(x, fmt) for x in (e.player_ev, e.banker_ev, e.house_take)),
                               yes_no(e.banker_unique), _certified(e.certificate.holds)]
                              for n, e in enumerate(found.equilibria, 1)]
    headers = ["equilibrium", "Player draws on 5", "Banker mixes", "player_ev", "banker_ev", "house's take",
               "Banker's strategy unique", "certified"]
    return Table(f"Nash equilibria, model {game.model}, {game.shoe}", headers, rows,
                 ("Certified: each strategy an exact best reply to the other, for each side's own payoff.",))


def commission_tables(found: Equilibria, fmt: str) -> list[Table]:
    """The summary, every equilibrium (both sides' expectations, the house's take) and its Banker's tableau."""
    return [_commission_summary(found, fmt), _equilibria_table(found, fmt),
            *(_tableau_table(f"Banker's strategy at equilibrium {n}", found.game.player, e.banker)
              for n, e in enumerate(found.equilibria, 1))]


def commission_json(found: Equilibria) -> dict[str, object]:
    """The ``chemin-de-fer --commission A --format json`` object; every figure an exact ``num/den`` string."""
    game = found.game.player
    return {
        **game_json(game), "commission": fraction_text(found.game.commission), "unique": found.unique,
        "continuum": found.continuum,
        "equilibria": [_equilibrium_json(game, e) for e in found.equilibria],
    }


def _equilibrium_json(game: ChoiceGame, e: Equilibrium) -> dict[str, object]:
    cert = e.certificate
    return {
        "player": _player_json(game, e.player), "banker": _banker_json(game, e.banker),
        "banker_mixed": _mixed_json(game, e.banker), "player_ev": fraction_text(e.player_ev),
        "banker_ev": fraction_text(e.banker_ev), "house_take": fraction_text(e.house_take),
        "banker_unique": e.banker_unique,
        "certificate": {"player": fraction_text(cert.player),
                        "player_best_reply": fraction_text(cert.player_best_reply),
                        "banker": fraction_text(cert.banker),
                        "banker_best_reply": fraction_text(cert.banker_best_reply), "holds": cert.holds},
    }


# ---------------------------------------------------------------- as the shoe is dealt

SHOE_NOTE = ("Before each coup, the game solved on the cards not yet dealt (the burned ones gone too); a coup's "
             "cards are counted off as the standard tableau plays them.")


def shoe_tables(rows: Sequence[CoupSolution], fmt: str, source: str) -> list[Table]:
    """A summary (coups, the least and greatest value) and one row per coup: the value and the mixed choices."""
    values = [r.value for r in rows]
    model = rows[0].solution.game.model if rows else ""
    summary: list[list[Cell]] = [["model", model], ["shoes", source], ["coups", str(len(rows))]]
    if values:
        summary += [["value, least (player_ev)", percent_cell(min(values), fmt)],
                    ["value, greatest", percent_cell(max(values), fmt)]]
    table: list[list[Cell]] = [
        [str(r.shoe), str(r.coup), str(r.cards_left), percent_cell(r.value, fmt), fraction_text(r.value),
         player_draws_text(r.solution.game, r.solution.player), _mixed_text(r.solution.game, r.solution.banker)]
        for r in rows]
    headers = ["shoe", "coup", "cards left", "value (player_ev)", "value, exactly", "Player draws on 5",
               "Banker mixes"]
    return [Table(f"Chemin de fer as the shoe is dealt, model {model}", ["figure", "value"], summary,
                  (PLAYER_EV_NOTE,)),
            Table(f"Before each coup, model {model}", headers, table, (SHOE_NOTE,))]


def shoe_play_json(rows: Sequence[CoupSolution], source: str) -> dict[str, object]:
    """The ``chemin-de-fer --shoes N`` / ``--input RECORD`` object; every figure an exact ``num/den`` string."""
    return {
        "model": rows[0].solution.game.model if rows else None, "source": source,
        "coups": [{"shoe": r.shoe, "coup": r.coup, "cards_left": r.cards_left, "value": fraction_text(r.value),
                   "player": _player_json(r.solution.game, r.solution.player),
                   "banker_mixed": _mixed_json(r.solution.game, r.solution.banker),
                   "certified": r.solution.certificate.holds} for r in rows],
    }


# ---------------------------------------------------------------- baccara banque

BANQUE_INFORMATION = ("each Player sees his own total; the Banker sees his total and what each hand did (a natural, "
                      "stood, or its third card), and draws or stands once for both hands")
BANQUE_NOTE = ("value: the Players' expectation per unit staked in all (share on hand 1, the rest on hand 2); the "
               "Banker's is its opposite. Correlated cooperative: the Players pool their stakes and may correlate "
               "their choices on 5; independent cooperative: the same optimum reached by each Player choosing on "
               "his own. The Nash equilibrium (each Player for his own hand) is not computed: its drawing "
               "probabilities need not be rational numbers.")
BANQUE_COLUMNS_NOTE = ("Hand 1, hand 2: what each did as the Banker sees it (a natural, stood, or the third card it "
                       "drew). Every other cell the Banker draws (1) or stands (0), as the JSON's banker lists.")


def state_text(state: State) -> str:
    """What a Player hand did, as the Banker sees it: ``natural``, ``stood`` or its third card ``0``-``9``.

    >>> state_text(NATURAL), state_text(None), state_text(3)
    ('natural', 'stood', '3')
    """
    return "natural" if state == NATURAL else _column_text(state)


def _choice_word(draws: int) -> str:
    return "draws" if draws else "stands"


def independent_text(solution: Cooperative) -> str:
    """Whether the independent cooperative equilibrium exists, and the Players' drawing chances there."""
    if solution.independent is not None:
        x1, x2 = solution.independent
        return f"exists: Player 1 draws on 5 with {fraction_text(x1)}, Player 2 with {fraction_text(x2)}"
    if solution.pairs_unique:
        return "does not exist: the Players reach the optimum only by correlating their choices"
    return "not decided: the Players' optimal correlation is not unique"


def _draws_on_5(solution: Cooperative) -> tuple[Fraction, Fraction]:
    """Each Player's chance of drawing on 5 at the correlated equilibrium (over the pure pairs he draws in)."""
    return (sum((w for (d1, _), w in zip(PAIRS, solution.pairs, strict=True) if d1), Fraction(0)),
            sum((w for (_, d2), w in zip(PAIRS, solution.pairs, strict=True) if d2), Fraction(0)))


def _banque_summary(solution: Cooperative, fmt: str) -> Table:
    x1, x2 = _draws_on_5(solution)
    rows: list[list[Cell]] = [
        ["cards", "dealt with replacement"],
        ["share staked on hand 1", fraction_text(solution.theta)],
        ["value (Players' expectation per unit staked)", percent_cell(solution.value, fmt)],
        ["value, exactly", fraction_text(solution.value)],
        ["value, decimal", decimal_text(solution.value, 12)],
        ["hand 1, per unit staked on it", percent_cell(solution.hands.first, fmt)],
        ["hand 2, per unit staked on it", percent_cell(solution.hands.second, fmt)],
        ["correlated cooperative equilibrium", "found" + ("" if solution.pairs_unique else " (not unique)")],
        ["Player 1 draws on 5", fraction_text(x1)],
        ["Player 2 draws on 5", fraction_text(x2)],
        ["independent cooperative equilibrium", independent_text(solution)],
        ["Nash equilibrium", "not computed"],
        ["certified (each side's strategy a best reply to the other)", _certified(solution.certificate.holds)],
    ]
    return Table(f"Baccara banque, share {fraction_text(solution.theta)} on hand 1", ["figure", "value"], rows,
                 (f"Information: {BANQUE_INFORMATION}.", BANQUE_NOTE))


def _pairs_table(solution: Cooperative, fmt: str) -> Table:
    rows: list[list[Cell]] = [[_choice_word(d1), _choice_word(d2), fraction_text(w), _decimal(w, fmt)]
                              for (d1, d2), w in zip(PAIRS, solution.pairs, strict=True)]
    return Table("The Players' choices on 5, correlated cooperative equilibrium",
                 ["Player 1", "Player 2", "chance", "chance, decimal"], rows,
                 ("Both Players' choices on a two-card 5 drawn together, with these chances.",))


def _banque_mixed(game: BanqueGame, solution: Cooperative) -> list[tuple[BanqueSet, Fraction]]:
    return [(s, q) for s, q in zip(game.sets, solution.banker, strict=True) if 0 < q < 1]


def _banque_banker_table(game: BanqueGame, solution: Cooperative, fmt: str) -> Table:
    rows: list[list[Cell]] = [[str(s.banker), state_text(s.first), state_text(s.second), fraction_text(q),
                               _decimal(q, fmt)] for s, q in _banque_mixed(game, solution)]
    return Table("Banker's mixed cells, correlated cooperative equilibrium",
                 ["banker", "hand 1", "hand 2", "chance of drawing", "chance, decimal"], rows, (BANQUE_COLUMNS_NOTE,))


def banque_tables(game: BanqueGame, solution: Cooperative, fmt: str) -> list[Table]:
    """The summary, the Players' correlated choices on 5 and the Banker's mixed cells."""
    return [_banque_summary(solution, fmt), _pairs_table(solution, fmt),
            _banque_banker_table(game, solution, fmt)]


def banque_json(game: BanqueGame, solution: Cooperative) -> dict[str, object]:
    """The ``chemin-de-fer --banque --format json`` object; every figure an exact ``num/den`` string."""
    x1, x2 = _draws_on_5(solution)
    cert = solution.certificate
    independent = solution.independent
    return {
        "game": "baccara banque", "information": BANQUE_INFORMATION, "with_replacement": True,
        "share": fraction_text(solution.theta), "value": fraction_text(solution.value),
        "hands": {"hand_1": fraction_text(solution.hands.first), "hand_2": fraction_text(solution.hands.second)},
        "correlated_cooperative": {
            "pairs": [{"player_1": _choice_word(d1), "player_2": _choice_word(d2), "chance": fraction_text(w)}
                      for (d1, d2), w in zip(PAIRS, solution.pairs, strict=True)],
            "player_1_draws": fraction_text(x1), "player_2_draws": fraction_text(x2),
            "unique": solution.pairs_unique},
        "independent_cooperative": {
            "exists": True if independent is not None else False if solution.pairs_unique else None,
            "player_1_draws": None if independent is None else fraction_text(independent[0]),
            "player_2_draws": None if independent is None else fraction_text(independent[1])},
        "banker": [_banque_set_json(s, q) for s, q in zip(game.sets, solution.banker, strict=True)],
        "banker_mixed": [_banque_set_json(s, q) for s, q in _banque_mixed(game, solution)],
        "certificate": {"value": fraction_text(cert.expectation),
                        "players_best_reply": fraction_text(cert.player_best_reply),
                        "banker_best_reply": fraction_text(cert.banker_best_reply), "holds": cert.holds},
    }


def _banque_set_json(s: BanqueSet, q: Fraction) -> dict[str, object]:
    return {"banker": s.banker, "hand_1": state_text(s.first), "hand_2": state_text(s.second), "draw": fraction_text(q)}
