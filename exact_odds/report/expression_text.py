"""SymPy's ``str`` of the expressions ``exact-odds symbolic`` shows, written without SymPy's printer.

SymPy's printer orders the terms and factors of an expression by its general sort keys, which
costs a few milliseconds an expression: most of what the command spent printing. The
expressions it shows have plain shapes, whose orders are plain too:

- a *sum* of rational multiples of powers of single symbols (a polynomial in d; a house edge
  linear in payout symbols): its terms in descending lexicographic order of their exponents,
  the symbols taken by name, so a constant comes last; but a positive number and one negative
  multiple of a power are written number first (``5/7 - 3*tie/7``);
- a *product* of a rational number and integer powers of symbols and of such sums (a factored
  rational function of d): the number, then the powers of symbols by name, then the powers of
  sums by their number of terms and then term by term (each term by its exponent and then its
  coefficient, a constant before any power); the numerator and the denominator keep that order.

Anything else is left to SymPy (``str(expr)``). Nothing here imports SymPy: the expressions are
read through their attributes. A test compares :func:`expression_text` with ``str`` on every
expression the command shows and on many random ones.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

Term = tuple[Fraction, str, int]
"""A sum's term: coefficient, symbol name and exponent (``""`` and 0 for a constant)."""


def expression_text(expr: Any) -> str:
    """``str(expr)`` for a SymPy expression, computed directly for the shapes the module names."""
    text = _sum_text(expr) if expr.is_Add else _product_text(expr) if expr.is_Mul else None
    return str(expr) if text is None else text


def _rational(x: Fraction) -> str:
    """A rational number as SymPy writes it: ``-3/4``, ``5``."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _power(name: str, k: int) -> str:
    return name if k == 1 else f"{name}**{k}"


def _term(expr: Any) -> Term | None:
    """A term ``c * s**k`` (``k >= 1``) or a rational constant; ``None`` for any other shape."""
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q)), "", 0
    coefficient, rest = Fraction(1), expr
    if expr.is_Mul:
        if len(expr.args) != 2 or not expr.args[0].is_Rational:
            return None
        number, rest = expr.args
        coefficient = Fraction(int(number.p), int(number.q))
    if rest.is_Symbol:
        return coefficient, str(rest.name), 1
    if rest.is_Pow and rest.base.is_Symbol and rest.exp.is_Integer and rest.exp > 1:
        return coefficient, str(rest.base.name), int(rest.exp)
    return None


def _ordered_terms(expr: Any) -> list[Term] | None:
    """The terms of a sum in the order SymPy writes them (see the module), or ``None``."""
    terms = [_term(arg) for arg in expr.args]
    if any(t is None for t in terms):
        return None
    known = [t for t in terms if t is not None]
    names = sorted({name for _, name, k in known if k})
    if len({(name, k) for _, name, k in known}) != len(known):
        return None
    if len(known) == 2:
        constant, other = sorted(known, key=lambda t: t[2] != 0)
        if constant[2] == 0 and other[2] != 0 and constant[0] > 0 > other[0]:
            return [constant, other]
    return sorted(known, key=lambda t: tuple(-(t[2] if t[1] == name else 0) for name in names))


def _term_text(term: Term) -> str:
    coefficient, name, k = term
    if not k:
        return _rational(coefficient)
    sign, c = ("-", -coefficient) if coefficient < 0 else ("", coefficient)
    numerator = [*([str(c.numerator)] if c.numerator != 1 else []), _power(name, k)]
    return sign + "*".join(numerator) + (f"/{c.denominator}" if c.denominator != 1 else "")


def _terms_text(terms: list[Term]) -> str:
    """A sum's terms joined with their signs, as SymPy's ``_print_Add`` does."""
    out: list[str] = []
    for term in terms:
        text = _term_text(term)
        negative = text.startswith("-")
        out += ["-" if negative else "+", text[1:] if negative else text]
    return ("" if out[0] == "+" else "-") + " ".join(out[1:])


def _sum_text(expr: Any) -> str | None:
    terms = _ordered_terms(expr)
    return None if terms is None else _terms_text(terms)


def _factor(expr: Any) -> tuple[tuple[Any, ...], str, int] | None:
    """A product's factor ``base**k``: (sort key, base text, k), or ``None`` for another shape."""
    base, k = (expr.base, expr.exp) if expr.is_Pow else (expr, 1)
    if not (isinstance(k, int) or k.is_Integer):
        return None
    if base.is_Symbol:
        return (0, str(base.name), int(k)), str(base.name), int(k)
    terms = _ordered_terms(base) if base.is_Add else None
    if terms is None:
        return None
    key = (len(terms), tuple((0, c) if not e else (1, name, e, c) for c, name, e in terms))
    return (1, key, int(k)), f"({_terms_text(terms)})", int(k)


def _product_text(expr: Any) -> str | None:
    """A rational number times powers of symbols and sums, as SymPy's ``_print_Mul`` writes it."""
    first, *rest = expr.args
    if first == 1 or any(a.is_Number or (a.is_Pow and a.base.is_Integer and a.exp.is_Integer) for a in rest):
        return None  # a product left unevaluated: SymPy writes every factor as it stands
    number, args = (Fraction(int(first.p), int(first.q)), rest) if first.is_Rational else (Fraction(1), expr.args)
    factors = [_factor(arg) for arg in args]
    if any(f is None for f in factors):
        return None
    sign, number = ("-", -number) if number < 0 else ("", number)
    top = [str(number.numerator)] if number.numerator != 1 else []
    bottom = [str(number.denominator)] if number.denominator != 1 else []
    for _, text, k in sorted((f for f in factors if f is not None), key=lambda f: f[0]):
        (top if k > 0 else bottom).append(text if abs(k) == 1 else f"{text}**{abs(k)}")
    text = sign + "*".join(top or ["1"])
    if not bottom:
        return text
    return text + "/" + (bottom[0] if len(bottom) == 1 else f"({'*'.join(bottom)})")
