"""`--help` flows to the terminal's width (issue 31): the commands' docstrings are wrapped
at the source's width, and click's help keeps some of those line breaks (in the list of
commands, in a description's later paragraphs): a line ends where the next word would
still have fit. Every command's and subcommand's help, at 80 and 200 columns, in English
and in Hungarian, has no such break; `seki --help` ends with the table of exit statuses."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from sekigahara_pbem import i18n
from sekigahara_pbem.cli import app
from sekigahara_pbem.commands.common import flowed
from sekigahara_pbem.refusal import EXIT_WORDS

BORDERS = "│╭╰─╮╯"
ITEM = re.compile(r"\[|\d+\b|[-*•]\s")  # a default or [required], an exit status, a list item


def _paths(command, path=()):
    """Every command's words after `seki` (the root's: none), through click's interface."""
    yield path
    if hasattr(command, "list_commands"):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            yield from _paths(command.get_command(ctx, name), (*path, name))


def _help(path: tuple[str, ...], columns: int, lang: str, home) -> str:
    env = {"SEKI_HOME": str(home), "LANG": lang, "LANGUAGE": "", "COLUMNS": str(columns),
           "TERMINAL_WIDTH": ""}  # fmt: skip
    done = CliRunner().invoke(app, [*path, "--help"], env=env)
    assert done.exit_code == 0, (path, done.output)
    return done.stdout


def _cell(line: str) -> tuple[int, int, int]:
    """Where a line's text starts and ends, and the last column text may take: a row of a
    panel (│ ... │) or a line of the description (padded by one column each side)."""
    inner = line.rstrip()
    right = inner.rfind("│") if inner.endswith("│") else len(line) - 1
    body = inner.rstrip(" │")
    left = 1 if body.startswith("│") else 0
    start = left + len(body[left:]) - len(body[left:].lstrip())
    return start, len(body), right - 1


def _last_cell(line: str) -> int:
    """The column where a line's last cell starts: the text after its last gap of two
    spaces or more (a panel's columns), else its first text."""
    body = line.rstrip().rstrip("│").rstrip()
    starts = [m.start() for m in re.finditer(r"(?<=  )[^ │]", body)]
    return starts[-1] if starts else len(body) - len(body.lstrip("│ "))


def premature_breaks(text: str) -> list[tuple[str, str]]:
    """Each pair of lines of one cell (a paragraph of the description, or the help of a
    panel's row) where the first ends though the next line's first word would have fit
    after it: a line break from the source, not from the width."""
    found = []
    lines = text.splitlines()
    for line, following in zip(lines, lines[1:], strict=False):
        if not line.strip(BORDERS + " ") or not following.strip(BORDERS + " "):
            continue  # a blank line ends a paragraph
        start, _end, limit = _cell(following)
        if start != _last_cell(line):
            continue  # another row, or another cell
        word = following[start:].split(" ", 1)[0]
        if not ITEM.match(word) and _cell(line)[1] + 1 + len(word) <= limit:
            found.append((line.rstrip(), following.rstrip()))
    return found


def test_the_checker_finds_a_break_from_the_source():
    """The checker itself: a help text with its source's line break kept is caught, the
    same text flowed is not."""
    source = "Replay the game and check\nevery signature."
    raw = f" {source.splitlines()[0]:<40} \n {source.splitlines()[1]:<40} \n"
    assert premature_breaks(raw)
    assert not premature_breaks(f" {flowed(source):<60} \n")


@pytest.mark.parametrize("lang", ["C", "hu_HU.UTF-8"])
def test_no_help_breaks_a_line_mid_sentence(lang, tmp_path, monkeypatch):
    monkeypatch.setenv("SEKI_HOME", str(tmp_path))
    paths = list(_paths(app))
    assert len(paths) > 30 and ("docs",) in paths and ("keys", "new") in paths
    broken = []
    for columns in (80, 200):
        for path in paths:
            text = _help(path, columns, lang, tmp_path)
            assert max(len(line) for line in text.splitlines()) <= columns, path
            broken += [(columns, " ".join(path), pair) for pair in premature_breaks(text)]
    assert not broken, broken[:5]


def test_a_list_keeps_its_lines():
    """A paragraph of items or an indented example keeps its line breaks; prose flows."""
    text = "Lead in,\ncontinued.\n\n- one\n- two\n\n    seki play\n    seki view"
    assert flowed(text) == "Lead in, continued.\n\n- one\n- two\n\n    seki play\n    seki view"


def test_seki_help_ends_with_the_exit_statuses(tmp_path):
    english = _help((), 80, "C", tmp_path)
    assert "Exit status:" in english
    for status, words in EXIT_WORDS.items():
        assert re.search(rf"^\s+{int(status)}\s+{re.escape(words)}", english, re.M), words
    hungarian = _help((), 200, "hu_HU.UTF-8", tmp_path)
    with i18n.using("hu"):
        assert i18n.gettext(EXIT_WORDS[next(iter(EXIT_WORDS))]) in hungarian
        assert i18n.gettext("Exit status:") in hungarian
