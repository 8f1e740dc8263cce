"""`seki verify` reads a long archive's records, packets and turn files ahead in a second
process (referee/read_ahead.py): the first discrepancy it reports is the one a single
process finds, wherever the failures fall against the replay's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sekigahara_pbem.referee import read_ahead
from sekigahara_pbem.referee import verify as checks


def _spoil(path: Path) -> None:
    """Change one letter of a signed document's body: its signature no longer holds."""
    text = path.read_text(encoding="utf-8")
    at = text.index("game: ") + len("game: ")
    path.write_text(text[:at] + ("X" if text[at] != "X" else "Y") + text[at + 1 :])


def _first_discrepancy(root: Path, monkeypatch, parallel: bool) -> str:
    """The first discrepancy found by one process, or with every record read ahead by the
    second (the walk never overtakes it: it waits for each run rather than read it)."""
    from concurrent.futures import Future

    monkeypatch.setattr(read_ahead, "PARALLEL_FROM", 1 if parallel else 10**9)
    monkeypatch.setattr(Future, "cancel", lambda self: False)
    monkeypatch.setattr(read_ahead.os, "cpu_count", lambda: 2)
    with pytest.raises(checks.Discrepancy) as caught:
        checks.verify(root)
    return str(caught.value)


@pytest.mark.parametrize(
    ("spoiled", "named"),
    [
        (["packets/000040-ishida.txt"], "packets/000040-ishida.txt"),
        (["records/000041.txt", "packets/000040-tokugawa.txt"], "packets/000040-tokugawa.txt"),
        (["packets/000041-ishida.txt", "records/000040.txt"], "records/000040.txt"),
        (["packets/000040-ishida.txt", "records/000040.txt"], "records/000040.txt"),
        (["packets/000045-ishida.txt", "packets/000044-tokugawa.txt"], "packets/000044-tokugawa"),
        (["turns/000040-*.txt"], "turns/000040-"),
        (["turns/000041-*.txt", "packets/000040-ishida.txt"], "packets/000040-ishida.txt"),
        (["packets/000041-ishida.txt", "turns/000041-*.txt"], "turns/000041-"),
        (["turns/000050-*.txt", "records/000049.txt"], "records/000049.txt"),
    ],
)
def test_the_second_process_reports_the_same_first_discrepancy(
    demo, tmp_path, monkeypatch, spoiled, named
):
    root, _ = demo
    target = tmp_path / "game"
    shutil.copytree(root / "game", target)
    for name in spoiled:
        (path,) = target.glob(name)
        _spoil(path)
    alone = _first_discrepancy(target, monkeypatch, parallel=False)
    shared = _first_discrepancy(target, monkeypatch, parallel=True)
    assert shared == alone and alone.startswith(named)


def test_a_long_archive_verifies_the_same_with_a_second_process(demo, monkeypatch):
    root, _ = demo
    monkeypatch.setattr(read_ahead.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(read_ahead, "PARALLEL_FROM", 10**9)
    alone = checks.verify(root / "game")
    monkeypatch.setattr(read_ahead, "PARALLEL_FROM", 1)
    shared = checks.verify(root / "game")
    assert alone == shared and shared.packets == 2 * shared.records > 100


def test_a_refusal_crosses_processes_whole():
    """The second process hands back its discrepancy pickled: template, values and the
    refusal it wraps survive, so it is put in the reader's language as if found here."""
    import pickle

    from sekigahara_pbem import i18n
    from sekigahara_pbem.protocol.documents import DocumentError
    from sekigahara_pbem.referee.discrepancy import wrapped

    inner = DocumentError("packets/x.txt", "expected {what}", what="a mapping")
    outer = wrapped("packets/x.txt", inner)
    back = pickle.loads(pickle.dumps(outer))
    assert type(back) is type(outer) and str(back) == str(outer)
    assert (back.template, back.where, back.code) == (outer.template, outer.where, outer.code)
    with i18n.using("hu"):
        assert i18n.explain(back) == i18n.explain(outer)


def test_packets_are_checked_here_when_the_second_process_dies(demo, tmp_path, monkeypatch):
    """A second process that cannot start or dies (a frozen executable, a process limit)
    never skips a check: its runs are checked in the first process."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    def broken(self, first, last):
        job: Future = Future()
        job.set_exception(BrokenProcessPool("gone"))
        return job

    root, _ = demo
    target = tmp_path / "game"
    shutil.copytree(root / "game", target)
    _spoil(target / "packets/000050-ishida.txt")
    monkeypatch.setattr(read_ahead.ReadAhead, "_submit", broken)
    shared = _first_discrepancy(target, monkeypatch, parallel=True)
    assert shared == _first_discrepancy(target, monkeypatch, parallel=False)
    assert shared.startswith("packets/000050-ishida.txt: bad signature")
