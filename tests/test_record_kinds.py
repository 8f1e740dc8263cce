"""The kinds of record are one table (referee/records/__init__.py, issue 29): the referee finds
a document's kind by the format it names, `seki verify` a record's by the kind its body
names, both in `records.KINDS`; and the engine's side (pbem) imports nothing of the
presentation layer (reports), which may read archives through pbem."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_pbem import NOW, _game

from sekigahara_pbem.protocol import joins, takebacks, turns
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.discrepancy import Discrepancy
from sekigahara_pbem.referee.records import (
    KINDS,
    admitting,
    deadline,
    opening,
    replaying,
    takeback,
    turn,
    writer,
)
from sekigahara_pbem.referee.steps import Step

PACKAGE = Path(__file__).parent.parent / "sekigahara_pbem"


@pytest.mark.parametrize(
    ("format_", "admit"),
    [
        (joins.JOIN_FORMAT, opening.admit_join),
        (joins.JOIN_FORMAT_V1, opening.admit_join),
        (joins.SEED_FORMAT, opening.admit_seed),
        (takebacks.REQUEST_FORMAT, takeback.admit_request),
        (takebacks.CONSENT_FORMAT, takeback.admit_consent),
        (turns.TURN_FORMAT, turn.admit),
        (turns.SEALED_FORMAT, turn.admit),
        ("seki-reveal/1", turn.admit),  # no kind's: a turn file's parse refuses it
    ],
)
def test_the_referee_finds_a_documents_kind_by_its_format(format_, admit):
    assert admitting(["game: g", f"format: {format_}", "side: ishida"]) is admit


def test_each_format_and_each_kind_has_one_entry():
    formats = [f for entry in KINDS for f in entry.admits]
    assert len(formats) == len(set(formats))
    replayed = [entry.kind for entry in KINDS if entry.replay is not None]
    assert len(replayed) == len(set(replayed))


@pytest.mark.parametrize(
    ("kind", "replay"),
    [(None, turn.replay), ("deadline", deadline.replay), ("takeback", takeback.replay)]
    + [(odd, None) for odd in ("bogus", "", 3, True, ["takeback"], {"kind": "deadline"})],
)
def test_verify_finds_a_records_kind_by_its_body(kind, replay):
    """Whatever a hostile body names (a list, a mapping: unhashable), no lookup fails."""
    assert replaying(kind) is replay


def test_a_record_of_a_kind_the_table_lacks_does_not_verify(tmp_path):
    root, ids, _definition = _game(tmp_path)
    game = referee.open_game(root, ids["ref"])
    record, state = referee.current(game)
    draft = writer.Draft(Step(state, [], None), [], "odd", NOW, {"kind": ["takeback"]})
    writer.write(game, record, state, draft)
    with pytest.raises(Discrepancy) as found:
        checks.verify(root)
    assert str(found.value) == "records/000002.txt: unknown kind ['takeback']"


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at its top or in a function, relative ones resolved."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = parts[:-1]  # a module's, or an __init__'s own
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            found |= {origin, *(f"{origin}.{a.name}" for a in node.names)}
    return found


def test_the_engines_side_imports_no_report():
    """pbem (the referee, verify, the mail robot) imports nothing of reports: the robot is
    handed its mail's public report (reports.mail_report), and the words both show are in
    words.py. A cycle between the two would make neither usable without the other."""
    found = {
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in sorted((PACKAGE / "pbem").rglob("*.py"))
        for name in _imports(path)
        if name == "sekigahara_pbem.reports" or name.startswith("sekigahara_pbem.reports.")
    }
    assert not found
