"""Figures (optional extra ``exact-odds[plot]``; matplotlib imported only when drawing): each ``*_drawing``
makes one, which :func:`save_figure` writes to a file and :func:`svg_text` puts inline in a page.

Every figure has one style (:data:`STYLE`, :func:`_panels`, :func:`_label`): matplotlib's constrained
layout, and titles wrapped to the width they have.
"""

from __future__ import annotations

import io
import math
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exact_odds.analysis.removal import effects_are_zero
from exact_odds.core.shoe import RANK_LABELS
from exact_odds.inputs.errors import InputError, installed, require
from exact_odds.report.files import atomic_binary_file, check_output, shown

if TYPE_CHECKING:
    from exact_odds.analysis.removal import LinearCount, Removal
    from exact_odds.analysis.sessions import SessionDist
    from exact_odds.study.run import Study
    from exact_odds.witness.simulate import SimulatedSessions


def _pyplot() -> Any:
    matplotlib = require("matplotlib", "plot", "plots need matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


NEEDS_LATEX = {"pgf"}
"""Figure formats matplotlib writes only with LaTeX installed: refused, so that a figure never fails late."""
EVERY_MATPLOTLIB = frozenset({"eps", "jpeg", "jpg", "pdf", "png", "ps", "raw", "rgba", "svg", "svgz", "tif", "tiff",
                               "webp"})
"""Figure formats every matplotlib the plot extra admits (3.8 and later) writes, known without importing it."""


def figure_format(path: str | Path) -> str:
    """The format of a figure file, from its extension (``png`` when it has none); :class:`InputError`, listing
    the formats matplotlib writes, for any other (``eor.txt``)."""
    extension = Path(path).suffix[1:].lower()
    if extension in EVERY_MATPLOTLIB | {""} and installed("matplotlib"):
        return extension or "png"
    _pyplot()
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    formats = set(FigureCanvasAgg.get_supported_filetypes()) - NEEDS_LATEX
    if extension and extension not in formats:
        raise InputError(f"cannot write {shown(path)}: no figure format {shown(extension)} "
                         f"(name the file .png, or one of {', '.join(sorted(formats))})")
    return extension or "png"


def check_figure_path(path: str) -> str:
    """``path`` unchanged if a figure can be written there, for an argparse ``type=`` (refused before any work)."""
    if path == "-":
        raise InputError("a picture goes to a file: name one ('-', standard output, takes none)")
    figure_format(path)
    return check_output(path)


def save_figure(fig: Any, path: str | Path) -> None:
    """Write the drawing ``fig`` to ``path`` (its format from the extension, :func:`figure_format`), then close it."""
    try:
        fmt = figure_format(path)
        with atomic_binary_file(path) as fh:
            fig.savefig(fh, format=fmt, dpi=110)
    finally:
        _pyplot().close(fig)


STYLE = {"title": 12.0, "panel": 9.0, "label": 8.0, "ticks": 8.0, "legend": 7.0}
"""Font sizes (points) of the figure's title, a panel's title, axis labels, tick labels and legends."""
CHARACTER_WIDTH = 0.55
"""The width of an average character of the figures' font, in ems."""


def _panels(n: int, width: float, height: float) -> tuple[Any, list[Any]]:
    """A figure of ``n`` panels of ``width`` x ``height`` inches in a grid, up to 3 (5 past 9) across."""
    plt = _pyplot()
    cols = min(n, 3 if n <= 9 else 5)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False, layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _wrapped(text: str, inches: float, points: float) -> str:
    r"""``text`` broken into lines that fit ``inches`` at a font of ``points``.

    >>> _wrapped("Player EV before each coup: 20 shoes of 8 decks", 2.0, 12.0)
    'Player EV before each\ncoup: 20 shoes of 8\ndecks'
    """
    characters = max(12, int(inches * 72 / (points * CHARACTER_WIDTH)))
    return "\n".join(textwrap.wrap(text, characters)) or text


def _title(fig: Any, text: str) -> None:
    fig.suptitle(_wrapped(text, fig.get_figwidth() * 0.95, STYLE["title"]), fontsize=STYLE["title"])


def _label(ax: Any, title: str, xlabel: str | None, ylabel: str, *, legend: bool = False) -> None:
    """A panel's title (wrapped to the panel's width), axis labels, tick labels and legend, in :data:`STYLE`."""
    inches = ax.get_position().width * ax.figure.get_figwidth()
    ax.set_title(_wrapped(title, inches, STYLE["panel"]), fontsize=STYLE["panel"])
    if xlabel is not None:
        ax.set_xlabel(_wrapped(xlabel, inches, STYLE["label"]), fontsize=STYLE["label"])
    ax.set_ylabel(ylabel, fontsize=STYLE["label"])
    ax.tick_params(labelsize=STYLE["ticks"])
    if legend:
        ax.legend(fontsize=STYLE["legend"])


# ---------------------------------------------------------------- eor, study and count --plot


def eor_drawing(removals: Sequence[Removal], counts: Sequence[LinearCount], title: str) -> Any:
    """One bar chart per bet: the effect of removing one card of each rank, in % of a unit staked (above
    zero: it helps the bettor), and the suggested count's betting correlation (BC)."""
    fig, axes = _panels(len(removals), 4.2, 2.9)
    for ax, removal, count in zip(axes, removals, counts, strict=True):
        values = [100 * float(e) if e is not None else 0.0 for e in removal.effects]
        ax.bar(list(RANK_LABELS), values, color=["tab:blue" if v >= 0 else "tab:red" for v in values])
        ax.axhline(0, color="black", linewidth=0.8)
        bc = f"BC {float(count.correlation):.3f}" if any(count.tags) else (
            "every effect zero" if effects_are_zero(removal.effects) else "no count within --max-tag")
        _label(ax, f"{removal.bet.name} (EV {100 * float(removal.expectation):+.3f}%, {bc})", None,
               "effect, % of stake")
    _title(fig, title)
    return fig


def svg_text(fig: Any) -> str:
    """The drawing ``fig`` as one ``<svg>`` element to put inline in a page (then closed): deterministic and
    self-contained (glyphs as paths, fixed ids, no metadata)."""
    matplotlib = require("matplotlib", "plot", "plots need matplotlib")
    buf = io.StringIO()
    try:
        with matplotlib.rc_context({"svg.hashsalt": "exact-odds", "svg.fonttype": "path"}):
            fig.savefig(buf, format="svg", metadata={"Date": None})
    finally:
        _pyplot().close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    return re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.DOTALL).strip()


def study_drawing(study: Study) -> Any:
    """One histogram per bet of the exact player EV before each coup (log scale), zero and the full shoe's
    player EV marked."""
    fig, axes = _panels(len(study.bets), 4.6, 3.2)
    for j, (ax, bet) in enumerate(zip(axes, study.bets, strict=True)):
        ax.hist(100 * study.records.edges[:, j], bins=60, color="tab:blue", log=True)
        ax.axvline(0, color="black", linewidth=0.8, label="break-even")
        ax.axvline(100 * float(bet.expectation), color="tab:red", linestyle="--", linewidth=1, label="full shoe")
        share = 100 * bet.favourable / max(study.coups, 1)
        _label(ax, f"{bet.name}: EV > 0 before {share:.3f}% of coups",
               "exact player EV before the coup, % of stake", "coups", legend=True)
    _title(fig, f"Player EV before each coup: {study.shoes:,} shoes of {study.shoe}, seed {study.seed}")
    return fig


def count_drawing(study: Study) -> Any:
    """One panel per count of one's own: the mean exact player EV of its bet, and the coups dealt, at each true
    count (rounded down), break-even and the trigger marked."""
    import numpy as np

    records, names = study.records, [bet.name for bet in study.bets]
    fig, axes = _panels(len(study.counts), 4.8, 3.4)
    for j, (ax, result) in enumerate(zip(axes, study.counts, strict=True)):
        count = result.count
        true = np.floor(52 * records.count_running[:, j] / np.maximum(records.unseen, 1)).astype(int)
        edges = 100 * records.edges[:, names.index(count.bet)]
        values, where = np.unique(true, return_inverse=True)
        coups = np.bincount(where)
        means = np.bincount(where, weights=edges) / coups
        ax.plot(values, means, color="tab:blue", marker="o", markersize=3, linewidth=1.2,
                label=f"mean exact player EV of {count.bet}")
        ax.axhline(0, color="black", linewidth=0.8, label="break-even")
        ax.axvline(float(count.trigger), color="tab:red", linestyle="--", linewidth=1,
                   label=f"trigger: true count >= {float(count.trigger):g}")
        dealt = ax.twinx()
        dealt.bar(values, coups, width=0.8, color="tab:gray", alpha=0.25)
        dealt.set_yscale("log")
        dealt.set_ylabel("coups dealt", fontsize=STYLE["label"])
        dealt.tick_params(labelsize=STYLE["ticks"])
        ax.set_zorder(dealt.get_zorder() + 1)
        ax.patch.set_visible(False)
        _label(ax, f"{count.name}: BC {float(result.correlation):.3f}, triggers before "
                   f"{100 * result.frequency.value:.2f}% of coups",
               "true count before the coup (running count per deck unseen, rounded down)",
               "player EV, % of stake", legend=True)
    _title(fig, f"Counts of one's own: {study.shoes:,} shoes of {study.shoe}, seed {study.seed}")
    return fig


# ---------------------------------------------------------------- session --plot


def session_drawing(exact: SessionDist, sims: SimulatedSessions, title: str) -> Any:
    """A histogram of the simulated sessions' net results, the exact distribution's mass per bin over it (the
    hands taken as independent)."""
    import numpy as np

    values = np.array([float(v) for v, _ in exact.items()])
    probs = np.array([w / exact.total for _, w in exact.items()])
    found = sims.tally.items()
    simulated = np.array([value for value, _ in found], dtype=float) / sims.scale  # each result once, with
    sessions = np.array([n for _, n in found], dtype=float)  # the number of sessions that ended on it
    # Net results lie on a lattice (a tie bet's move in steps of 9 units): bins hold whole lattice steps.
    support = [i for i, w in enumerate(exact.ways) if w]
    spacing = math.gcd(*(i - support[0] for i in support)) / exact.scale if len(support) > 1 else 1.0
    origin = (exact.low + support[0]) / exact.scale
    cdf = np.cumsum(probs)
    lo = min(float(values[int(np.searchsorted(cdf, 0.0005))]), float(simulated.min()))
    top = min(len(values) - 1, int(np.searchsorted(cdf, 0.9995)))
    hi = max(float(values[top]), float(simulated.max()))
    if spacing < 1:  # fractional payouts (19:20): whole-unit bins, each the same number of lattice steps
        width = float(max(1, math.ceil((hi - lo) / 60)))
    else:
        width = spacing * max(1, math.ceil((hi - lo) / (60 * spacing)))
    first = origin + math.floor((lo - origin) / width) * width - spacing / 2
    edges = np.arange(first, hi + width, width)
    exact_mass, _ = np.histogram(values, bins=edges, weights=probs)
    sim_mass, _ = np.histogram(simulated, bins=edges, weights=sessions)
    centres = (edges[:-1] + edges[1:]) / 2
    fig, (ax,) = _panels(1, 8, 4.5)
    ax.bar(centres, sim_mass / sims.sessions, width=width * 0.92, color="tab:blue", alpha=0.45,
           label=f"simulated, {sims.sessions:,} sessions")
    ax.plot(centres, exact_mass, color="tab:red", marker="o", markersize=3, linewidth=1.2,
            label="exact (hands independent)")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.axvline(float(exact.mean()), color="tab:red", linestyle="--", linewidth=0.8,
               label=f"exact mean {float(exact.mean()):+.3f}")
    ax.set_xlim(edges[0], edges[-1])
    _label(ax, title, "net result after the session (units staked)",
           f"probability per bin of {width:g} unit{'s' if width != 1 else ''}", legend=True)
    return fig
