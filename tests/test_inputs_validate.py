"""The one check of the numbers and names a user gives (:mod:`exact_odds.inputs.validate`): ASCII digits,
finite values, stated bounds, exact payouts, and the same words whichever command or file gives them."""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import pytest
from test_cli_hostile_input import CONFIG, ROW

from exact_odds.bets import BetError, parse_configuration
from exact_odds.bets.main import EXAMPLE_TOML
from exact_odds.core.shoe import Shoe, ShoeError
from exact_odds.core.tableau import STANDARD_TOML, TableauError, parse_tableau
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError


@pytest.mark.parametrize("text", ["²", "\u0663", "1_000", "1e3", "0x10", "3.0", "", " ", "+", "1 2", "٣٣", "inf",
                                  "1" + "0" * 5000, "-1", "10001"], ids=lambda text: validate.shown(text)[:30])
def test_whole_numbers_are_ascii_digits_within_the_bound(text: str) -> None:
    with pytest.raises(InputError, match=r"^--decks must be a whole number from 1 to 10,000, got '"):
        validate.DECKS.parse(text, "--decks")


def test_whole_numbers_in_range_read_as_int() -> None:
    assert validate.DECKS.parse(" +8 ", "--decks") == 8 and validate.DECKS.parse("0008", "x") == 8
    assert validate.SEED.parse(str(2**64 - 1), "--seed") == 2**64 - 1
    assert validate.decks("inf") is None and validate.decks(" Infinity ") is None and validate.decks(6) == 6
    with pytest.raises(InputError, match="or 'inf', got True"):
        validate.decks(True)


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "1e999", "1e-999999999", "0x1p3", "1_0", "١", ""])
def test_real_numbers_are_finite(text: str) -> None:
    with pytest.raises(InputError, match=r"^--thresholds must be a finite number from -1,000,000 to 1,000,000"):
        validate.THRESHOLD.parse(text, "--thresholds")


def test_real_numbers_in_range() -> None:
    assert validate.THRESHOLD.parse("-1.5e2", "t") == -150.0 and validate.ALPHA.parse("0.001", "a") == 0.001
    for bad in ("0", "1", "1e-999"):
        with pytest.raises(InputError, match="strictly between 0 and 1"):
            validate.ALPHA.parse(bad, "--alpha")


@pytest.mark.parametrize(("value", "message"), [
    ("-2", "'-2' loses more than the stake"),
    ("-3/2", "loses more than the stake"),
    ("1e999999999", "is too long to be read exactly"),
    ("9" * 4000, r"\(4,000 characters\) is too long"),
    ("1e99", "is out of range: it must be from -1 to 1,000,000,000"),
    ("1/0", "is not an exact number"),
    ("2:0", "is not an exact number"),
    ("\u0663", "is not an exact number"),
    (0.95, "is a float"),
    (float("nan"), "is a float"),
    (True, "expected a number or a string, got bool"),
    (10**5000, "is out of range"),
], ids=lambda value: validate.shown(value)[:30])
def test_payouts_are_exact_and_bounded(value: object, message: str) -> None:
    with pytest.raises(InputError, match=f"^pays: .*{message}"):
        validate.PAYOUT.parse(value, "pays")


def test_payouts_read_every_exact_form() -> None:
    forms = {"19/20": Fraction(19, 20), "0.95": Fraction(19, 20), "11:1": 11, "1 to 2": Fraction(1, 2),
             "1e3": 1000, "-1": -1, "push": None}
    for text, value in forms.items():
        if value is not None:
            assert validate.PAYOUT.parse(text, "pays") == value
    assert validate.PAYOUT.parse(Fraction(-1), "pays") == -1 and validate.PAYOUT.parse(10**9, "pays") == 10**9


@pytest.mark.parametrize("odds", [False, True], ids=["exact", "odds"])
def test_plain_ratios_read_as_the_regular_expressions_read_them(odds: bool) -> None:
    """The forms read without regular expressions (digits, ``a/b``, ``a:b``) are the numbers the regular
    expressions read, and every other form is left to them."""
    texts = ["0", "7", "007", "19/20", "11:1", "30:1", "1:0", "0:1", "4/0", "1/2/3", "1:2:3", "1:2/3", "/2", "2/",
             ":1", "1:", "", "+1", "-1", "1.5", "1.5:1", "1 / 2", "1 to 2", "١٢", "²", "12:٣", "1e3", "99" * 20]
    for text in texts:
        plain = validate._plain_ratio(text, odds=odds)
        if plain is not None:
            assert plain == validate._written_number(text, odds=odds), text
        assert validate._exact_text(text, odds=odds) == validate._written_number(text, odds=odds), text


def test_messages_quote_long_values_short() -> None:
    assert validate.shown("abc") == "'abc'"
    assert validate.shown("9" * 5000) == "'" + "9" * 40 + "…' (5,000 characters)"
    assert validate.shown(10**5000).startswith("a number of 5,001 digits")


def test_names_are_not_empty() -> None:
    with pytest.raises(InputError, match="--config must not be empty"):
        validate.name("  ", "--config")
    with pytest.raises(InputError, match="printable characters"):
        validate.name("a\x00b", "--config")
    assert validate.name(" standard ", "--config") == "standard"


def test_every_command_refuses_a_bad_number_with_the_same_words() -> None:
    """An option and a file say the same of the same number."""
    with pytest.raises(ShoeError) as from_spec:
        Shoe.parse("A=\u0663")
    with pytest.raises(InputError) as from_batch:
        from exact_odds.batch.io import parse_compositions

        parse_compositions("\u0663" + ROW[2:])
    rule = "must be a whole number from 0 to 40,000, got '\u0663'"
    assert str(from_spec.value).endswith(rule) and str(from_batch.value).endswith(rule)


def test_a_negative_payout_is_refused_in_a_configuration_as_in_a_bets_file() -> None:
    with pytest.raises(BetError, match=r"^cfg.toml:2: banker win: '-2' loses more than the stake \(the least is -1\)$"):
        parse_configuration(CONFIG.format(win="-2"), source="cfg.toml")
    assert parse_configuration(CONFIG.format(win="-1"), source="cfg.toml").bets[0].lines[0].pays == -1


def test_a_unicode_digit_is_no_rules_row() -> None:
    with pytest.raises(TableauError, match=r"^rules:20: banker row '\u0663' is not a total 0-9$"):
        parse_tableau(STANDARD_TOML + '"\u0663" = "S S S S S S S S S S S"\n')


def test_specials_are_bounded_and_read_in_linear_time() -> None:
    hundred = EXAMPLE_TOML.replace("[player]", "".join(
        f'[[banker.special]]\ntotal = {i % 10}\npays = "1"\n' for i in range(99)) + "[player]")
    start = time.perf_counter()
    assert len(parse_configuration(hundred).bets[0].lines) == 1 + 100 + 1
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("text", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", " tls://scheduler:8786 ", "inproc://x",
                                  "TCP://h:1", "ws://h:1"])
def test_dask_addresses_of_a_usable_scheme(text: str) -> None:
    assert validate.dask_address(text) == text.strip()


@pytest.mark.parametrize("text", ["", " ", "ucx://127.0.0.1:1", "tcp://", "a b", "x" * 5000, "tcp://h/path",
                                  "ucxx://h:1", "://h:1"])
def test_dask_addresses_refused(text: str) -> None:
    with pytest.raises(InputError, match="^--dask must be a scheduler address such as tcp://HOST:PORT"):
        validate.dask_address(text, "--dask")
    with pytest.raises(argparse.ArgumentTypeError, match="^must be a scheduler address"):
        validate.dask_option(text)
