"""SymPy expressions of the symbolic results, built from their exact data as SymPy would build them.

:mod:`exact_odds.analysis.symbolic` computes in integers and fractions; this module, imported only when
an expression is asked for, turns its results into the very objects ``Poly.as_expr``, ``sympy.factor``
and SymPy's arithmetic give (tests compare their ``srepr``), put together in SymPy's canonical order
without simplifying again (which would load SymPy's tensor module for nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cmp_to_key

import sympy
from sympy.core.exprtools import _keep_coeff

from exact_odds.engine.deck_polynomials import Factored

D = sympy.Symbol("d", positive=True, integer=True)
"""The number of decks."""


def rational(value: Fraction | int) -> sympy.Rational:
    """An exact number as a SymPy rational."""
    f = Fraction(value)
    return sympy.Rational(f.numerator, f.denominator)


def _sum(constant: sympy.Rational, terms: Sequence[sympy.Expr]) -> sympy.Expr:
    """``constant + sum(terms)``, the terms being distinct monomials with non-zero coefficients, as
    ``sympy.Add`` builds it (its canonical order: the terms sorted, a non-zero constant first)."""
    args = [*([constant] if constant else []), *sorted(terms, key=cmp_to_key(sympy.Basic.compare))]
    if len(args) < 2:
        return args[0] if args else sympy.Integer(0)
    return sympy.Add(*args, evaluate=False)


def _term(coefficient: sympy.Rational, monomial: sympy.Expr) -> sympy.Expr:
    """``coefficient * monomial`` (a symbol or its power) as ``sympy.Mul`` builds it."""
    return monomial if coefficient == 1 else sympy.Mul(coefficient, monomial, evaluate=False)


def polynomial_expression(coefficients: Sequence[int | Fraction]) -> sympy.Expr:
    """The polynomial in d with these coefficients (lowest power first), as ``Poly.as_expr`` gives it."""
    terms = [_term(rational(c), D**k) for k, c in enumerate(coefficients) if k and c]
    return _sum(rational(coefficients[0]) if coefficients else sympy.Integer(0), terms)


def linear_expression(constant: Fraction, terms: Sequence[tuple[Fraction, str]]) -> sympy.Expr:
    """``constant + sum(coefficient * Symbol(name))`` (names distinct, coefficients not zero)."""
    return _sum(rational(constant), [_term(rational(c), sympy.Symbol(name)) for c, name in terms])


def factored_expression(value: Factored) -> sympy.Expr:
    """A factored rational function of d as ``sympy.factor`` gives it: each factor to its exponent,
    their product put together with the number in front (``_keep_coeff``, as ``factor`` does)."""
    product = sympy.Mul(*(polynomial_expression(f[::-1]) ** k for f, k in value.factors))
    return _keep_coeff(rational(value.number), product)
