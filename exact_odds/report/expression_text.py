"""The text SymPy's ``str`` gives the expressions ``symbolic`` shows, written from their exact data without
SymPy (slow to import and to print).

- A *sum* of rational multiples of powers of single symbols: terms in descending lexicographic order of
  their exponents, symbols by name (a constant last), but a positive number before one negative term.
- A *product* (:class:`~exact_odds.engine.deck_polynomials.Factored`): the number, the power of d, then
  the powers of sums by their number of terms and term by term, in numerator and denominator.

The few products SymPy writes otherwise are left to SymPy; tests compare every text with SymPy's.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from exact_odds.engine.deck_polynomials import Factored
from exact_odds.report.base import fraction_text

Term = tuple[Fraction, str, int]
"""A sum's term: coefficient, symbol name and exponent (``""`` and 0 for a constant)."""
SYMBOL = "d"
"""The name of the number of decks."""


def polynomial_text(coefficients: Sequence[int | Fraction]) -> str:
    """A polynomial in d (coefficients lowest power first), as ``str(Poly(...).as_expr())``."""
    return sum_text([(Fraction(c), SYMBOL if k else "", k) for k, c in enumerate(coefficients) if c])


def linear_text(constant: Fraction, terms: Sequence[tuple[Fraction, str]]) -> str:
    """``constant + sum(coefficient * symbol)`` (distinct names, coefficients not zero), as SymPy writes it."""
    return sum_text([*([(constant, "", 0)] if constant else []), *((c, name, 1) for c, name in terms)])


def _ordered(terms: Sequence[Term]) -> list[Term]:
    """The terms of a sum in the order SymPy writes them (see the module)."""
    if len(terms) == 2:
        constant, other = sorted(terms, key=lambda t: t[2] != 0)
        if constant[2] == 0 and other[2] != 0 and constant[0] > 0 > other[0]:
            return [constant, other]
    names = sorted({name for _, name, k in terms if k})
    return sorted(terms, key=lambda t: tuple(-(t[2] if t[1] == name else 0) for name in names))


def _term_text(term: Term) -> str:
    coefficient, name, k = term
    if not k:
        return fraction_text(coefficient)
    sign, c = ("-", -coefficient) if coefficient < 0 else ("", coefficient)
    power = name if k == 1 else f"{name}**{k}"
    numerator = [*([str(c.numerator)] if c.numerator != 1 else []), power]
    return sign + "*".join(numerator) + (f"/{c.denominator}" if c.denominator != 1 else "")


def sum_text(terms: Sequence[Term]) -> str:
    """A sum of distinct terms (``"0"`` if none) with their signs, as SymPy's ``_print_Add`` writes it."""
    out: list[str] = []
    for term in _ordered(terms):
        text = _term_text(term)
        negative = text.startswith("-")
        out += ["-" if negative else "+", text[1:] if negative else text]
    return ("" if out[0] == "+" else "-") + " ".join(out[1:]) if out else "0"


def _factor(coefficients: tuple[int, ...], k: int) -> tuple[tuple[object, ...], str]:
    """A factor (coefficients highest power first) to the power ``|k|``: its sort key and text."""
    if coefficients == (1, 0):
        return (0, k), SYMBOL if abs(k) == 1 else f"{SYMBOL}**{abs(k)}"
    top = len(coefficients) - 1
    terms = _ordered([(Fraction(c), SYMBOL if top - i else "", top - i) for i, c in enumerate(coefficients) if c])
    key = (len(terms), tuple((0, c) if not e else (1, e, c) for c, _, e in terms))
    text = f"({sum_text(terms)})"
    return (1, key, k), text if abs(k) == 1 else f"{text}**{abs(k)}"


def factored_text(value: Factored) -> str:
    """A factored rational function of d as ``str`` of its SymPy expression (``_print_Mul``) writes it."""
    number, factors = value.number, value.factors
    if not factors:
        return fraction_text(number)
    if len(factors) == 1 and ((abs(number) == 1 and factors[0][1] == 1 and factors[0][0] != (1, 0))
                              or (number == 1 and factors[0][1] < -1)):
        # sympy-backed: single-shoe commands never load it
        from exact_odds.analysis.symbolic_expressions import factored_expression

        return str(factored_expression(value))
    sign, number = ("-", -number) if number < 0 else ("", number)
    top = [str(number.numerator)] if number.numerator != 1 else []
    bottom = [str(number.denominator)] if number.denominator != 1 else []
    for (_, text), k in sorted(((_factor(f, k), k) for f, k in factors), key=lambda item: item[0][0]):
        (top if k > 0 else bottom).append(text)
    text = sign + "*".join(top or ["1"])
    if not bottom:
        return text
    return text + "/" + (bottom[0] if len(bottom) == 1 else f"({'*'.join(bottom)})")
