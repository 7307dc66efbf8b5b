"""HTML output: one self-contained page, rendered in a real headless browser.

The browser tests run wherever ``chromium`` is installed and always in CI (the variable ``CI`` set:
``.ci/run`` installs Debian's chromium), where a missing browser fails. They load the page from a
file with the network features off, then read the rendered DOM (``--dump-dom``) and take a
phone-sized screenshot (``--screenshot``).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import needed_tool, needs, run

from exact_odds.report.base import Table
from exact_odds.report.document import Provenance, html_page, html_table

EXAMPLES = Path(__file__).parent.parent / "examples"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = (390, 844)
"""A phone's viewport in CSS pixels (width, height)."""


class Page(HTMLParser):
    """What a test reads from a page: the tag counts, table rows and every URL an element names."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}
        self.rows: list[int] = []  # body rows of each table
        self.urls: list[str] = []
        self.attributes: list[dict[str, str | None]] = []
        self._in_body = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attributes.append(dict(attrs))
        self.urls += [v or "" for k, v in attrs if k in ("src", "href", "xlink:href", "action", "poster", "data")]
        if tag == "table":
            self.rows.append(0)
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.rows[-1] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False


def _browse(page: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run headless chromium on ``page`` with the network features off."""
    argv = [needed_tool(CHROMIUM, "chromium"),
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={PHONE[0]},{PHONE[1]}", *extra, page.as_uri()]
    done = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _page(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[Path, str]:
    out = tmp_path / "page.html"
    code, stdout, err = run(capsys, *argv, "--format", "html", "--output", str(out))
    assert code == 0 and stdout == "", err
    return out, out.read_text(encoding="utf-8")


def _no_external_resources(text: str) -> None:
    page = Page(text)
    assert not [u for u in page.urls if not u.startswith("#")], "the page names a file or a URL"
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:|//|file:)""", text, re.I)
    assert "@import" not in text and not re.search(r"""url\(\s*["']?(?!#)""", text)  # clip paths: url(#id)


def test_the_report_renders_as_a_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, text = _page(capsys, tmp_path, "report", "--decks", "6")
    _no_external_resources(text)
    dom = Page(_browse(path, tmp_path, "--dump-dom").stdout)
    source = Page(text)
    assert dom.tags.get("table") == source.tags["table"] >= 5
    assert dom.rows == source.rows and dom.rows[0] == 4  # odds: banker, player, tie, total
    assert dom.tags.get("caption") == dom.tags["table"]
    assert any(a.get("name") == "viewport" for a in dom.attributes)
    rendered = _browse(path, tmp_path, "--dump-dom").stdout
    assert "Punto banco odds, 6 decks" in rendered and "2,292,252,566,437,888" not in rendered
    assert "f91cfd7a8e077b4343f580c60d9b5833b87cd2e951b8df4808ea265d9401e9a0" in rendered  # the tableau's key
    assert 'class="num"' in rendered


@pytest.mark.slow
def test_the_page_fits_a_phone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Wide tables scroll inside their box: the page itself is no wider than the window (the browser's
    narrowest, for a desktop browser has a minimum width above a phone's)."""
    _, text = _page(capsys, tmp_path, "eor", "--decks", "1")
    probe = tmp_path / "probe.html"
    probe.write_text(text.replace("</body>", "<script>var d = document.documentElement; document.body.dataset.width "
                                             "= d.scrollWidth + ' ' + d.clientWidth;</script></body>"),
                     encoding="utf-8")
    dom = _browse(probe, tmp_path, "--dump-dom").stdout
    found = re.search(r'data-width="(\d+) (\d+)"', dom)
    assert found is not None
    page, window = int(found.group(1)), int(found.group(2))
    assert page <= window <= 520
    table = re.search(r'<div class="scroll">', dom)
    assert table is not None


@needs("matplotlib")  # the effects of removal are drawn inline
def test_a_phone_screenshot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, text = _page(capsys, tmp_path, "report", "--game", str(EXAMPLES / "games" / "my-casino.toml"), "--eor")
    _no_external_resources(text)
    assert "<svg" in text and "<figure>" in text  # the effects of removal, drawn inline
    shot = tmp_path / "phone.png"
    _browse(path, tmp_path, f"--screenshot={shot}")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == PHONE
    dom = Page(_browse(path, tmp_path, "--dump-dom").stdout)
    assert dom.tags.get("svg", 0) >= 1 and dom.tags.get("figure") == 1


@pytest.mark.parametrize("argv", [
    ("odds",), ("odds", "--dealt", "P: 9h 4c B: Kd"), ("edges",), ("parsheet", "--bet", "banker"), ("symbolic",),
    ("sidebets",), ("simulate", "--rounds", "500", "--seed", "1"),
    ("session", "--bet", "banker", "--hands", "10", "--sessions", "50", "--seed", "1"),
    ("bunco",), ("eor", "--decks", "1", "--bet", "banker"), ("study", "--shoes", "2", "--seed", "1"),
    ("count", "--shoes", "2", "--seed", "1", "--count", "jacobson-dragon-7"), ("advantage", "--decks", "1")],
    ids=lambda a: "-".join(a[:1]))
def test_every_table_command_writes_a_page(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv, "--format", "html")
    assert code in (0, 1), err
    assert out.startswith("<!DOCTYPE html>") and out.endswith("</html>\n")
    page = Page(out)
    assert page.tags["table"] == page.tags["caption"] >= 1 and page.tags["style"] >= 1
    assert "<dt>program</dt>" in out
    _no_external_resources(out)


def test_text_is_escaped_and_numbers_align_right() -> None:
    table = Table("<b>x</b> & y", ["bet <i>", "ways", "share", "pays"],
                  [["a<script>", 1234, "1.5%", "8:1"], ["b", 5, "-0.25%", "x"]], ["note <em>"])
    text = html_table(table)
    assert "<script>" not in text and "&lt;script&gt;" in text and "&lt;b&gt;x&lt;/b&gt; &amp; y" in text
    assert '<th scope="col" class="num">ways</th>' in text and '<td class="num">1,234</td>' in text
    assert '<td class="num">-0.25%</td>' in text and "<td>8:1</td>" in text
    page = html_page([table], Provenance("odds", shoe={"description": "<8 decks>", "cards": 416}, version="0"))
    assert "&lt;8 decks&gt;" in page and "<title>&lt;b&gt;x&lt;/b&gt; &amp; y</title>" in page
