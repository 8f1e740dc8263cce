"""`seki verify` reads a long archive's records, packets and turn files ahead in a second
process (referee/read_ahead.py): the first discrepancy it reports is the one a single
process finds, wherever the failures fall against the replay's."""

from __future__ import annotations

import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sekigahara_pbem import second_process
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


def test_the_second_process_imports_only_what_it_reads_with():
    """The second process imports this module for `_run` alone: records, signatures,
    packets and turn files, not the rules engine, the component sets, the kinds of record
    or the command line it never runs (issue 38: they were most of its start); nor does a
    short archive's one process import multiprocessing."""
    code = "import sys, sekigahara_pbem.referee.read_ahead; print(*sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    unneeded = {
        "sekigahara_pbem.rules.engine",
        "sekigahara_pbem.rules.components",
        "sekigahara_pbem.referee.records",
        "sekigahara_pbem.cli",
        "multiprocessing",
    }
    assert not unneeded & set(done.stdout.split())


def test_the_second_process_does_not_run_the_main_script_again(monkeypatch):
    """Spawn runs the first process's main script again in the second (the `seki` script
    imports the whole command line): not while the pool starts its process."""
    from multiprocessing import spawn

    main = types.ModuleType("__main__")
    main.__file__ = "/somewhere/bin/seki"
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert "init_main_from_path" in spawn.get_preparation_data("x")
    with second_process.no_main_script():
        assert not {"init_main_from_path", "init_main_from_name"} & set(
            spawn.get_preparation_data("x")
        )
    assert sys.modules["__main__"] is main
