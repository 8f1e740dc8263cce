"""Standard output carries only what a command makes (issue 31): a key, a JSON document, a
report, a document's text; what it wrote, what to do next and how it went go to standard
error. One class of command at a time, on a real game made through the commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cligame import PACKET, seki, started

ROOT = Path(__file__).parent.parent
DEMO = ROOT / "games" / "demo"


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """Game g, set up: keys ref, alice (Ishida) and bob (Tokugawa), Ishida's bid asked."""
    root = tmp_path_factory.mktemp("streams")
    started(root)
    return root


def _done(result) -> None:
    assert result.exit_code == 0, (result.output, result.exception)


def test_a_key_is_alone_on_standard_output(tmp_path):
    new = seki(tmp_path, "carol", "keys", "new", "carol")
    _done(new)
    assert re.fullmatch(r"seki1:carol:\S+\n", new.stdout), new.stdout
    assert "wrote" in new.stderr and "fingerprint" in new.stderr and "seki1:" in new.stderr
    age = seki(tmp_path, "carol", "keys", "age", "carol")
    _done(age)
    assert re.fullmatch(r"AGE-SECRET-KEY-1\S+\n", age.stdout) and "# recipient" in age.stderr


def test_a_json_document_is_the_whole_of_standard_output(game):
    for args in (("status", "g", "--json"), ("keys", "show", "--json"),
                 ("verify", str(DEMO), "--json")):  # fmt: skip
        done = seki(game, "ref", *args)
        _done(done)
        assert isinstance(json.loads(done.stdout), dict | list), args


def test_a_report_is_the_whole_of_standard_output(game, tmp_path):
    """`seki view` and `seki report`: the report alone, the same with a page written; the
    page, and what the packet's openings were checked against, said on standard error."""
    page = tmp_path / "view.html"
    view = seki(game, "alice", "view", PACKET, "--key", "alice", "--html", str(page))
    _done(view)
    first = view.stdout.splitlines()[0]
    assert "game g" in first and "packet 1" in first and page.is_file()
    assert "commitments" in view.stderr and str(page) in view.stderr
    plain = seki(game, "alice", "view", PACKET, "--key", "alice")
    assert plain.stdout == view.stdout and "commitments" in plain.stderr
    report = seki(game, "ref", "report", "g", "--html", str(tmp_path / "report.html"))
    _done(report)
    assert "report.html" in report.stderr
    assert report.stdout == seki(game, "ref", "report", "g").stdout


def test_a_command_that_writes_files_prints_nothing(game):
    """The files are its product: what was written, and where to send it, on stderr."""
    for who, args, said in (
        ("alice", ("turn", "new", PACKET, "--key", "alice"), "wrote"),
        ("alice", ("takeback", "request", PACKET, "--key", "alice"), "wrote"),
        ("alice", ("bot", "turn", PACKET, "--key", "alice", "--out", "bot.txt"), "wrote"),
        ("ref", ("game", "new", "g2", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
                 "--key", "ref"), "created game"),
        ("ref", ("reveal", "g", "--force"), "wrote"),
    ):  # fmt: skip
        done = seki(game, who, *args)
        _done(done)
        assert done.stdout == "", (args, done.stdout)
        assert said in done.stderr, (args, done.stderr)


def test_a_document_is_printed_as_it_is(tmp_path):
    done = seki(tmp_path, "x", "docs", "play")
    _done(done)
    assert done.stdout == (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
    listed = seki(tmp_path, "x", "docs")
    _done(listed)
    topics = [line.split()[0] for line in listed.stdout.splitlines()]
    assert topics == sorted(p.stem for p in (ROOT / "docs").glob("*.md"))


def test_the_completion_script_is_the_whole_of_standard_output(tmp_path):
    done = seki(tmp_path, "x", "--show-completion", "bash")
    _done(done)
    assert done.stdout.rstrip().endswith("_seki_completion_setup;")
    assert "complete -o nosort -F _seki_completion seki" in done.stdout
    assert done.stderr == ""
