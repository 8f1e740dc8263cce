"""`seki verify`'s check of the packets: each record's two, signed by the referee, must
belong to it and repeat its pending decisions, commitments and openings.

The packets are a quarter of a verify, and nothing of the replay depends on them: in a
long archive, on a machine with a second core, a second process checks them while the
replay goes on (issue 18). The first discrepancy is the same as in one process: a
packet's failure is raised where the replay would have checked that packet, that is
before anything the replay finds in a later record.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path

from ..crypto import signing
from ..protocol import chain
from ..protocol import documents as docs
from ..protocol.game import Definition, load
from ..protocol.store import GameDir
from ..refusal import N_, Refusal, UserError
from ..rules.vocab import SIDES
from .discrepancy import Discrepancy, wrapped

PARALLEL_FROM = 64  # records: below, starting a second process costs more than it saves
RUN = 32  # records the second process checks per job
FIELDS = ("pending", "commitments", "openings")  # what a packet repeats of its record


def check(gd: GameDir, definition: Definition, where: str, seq: int, record) -> int:
    """Raise Discrepancy unless record `seq`'s packets are its own; the number checked."""
    fields = {key: record.body.get(key) for key in FIELDS}
    failure = _failure(gd, definition, where, seq, record.hash, fields)
    if failure is not None:
        raise failure
    return len(SIDES)


def _failure(
    gd: GameDir, definition: Definition, where: str, seq: int, record_hash: str, fields: dict
) -> Discrepancy | None:
    for side in SIDES:
        path = gd.packet(seq, side)
        name = f"packets/{path.name}"
        try:
            verified = signing.verify(docs.read_capped(path), [definition.referee])
            body = docs.load(verified.body, name, "seki-packet/1")
        except Refusal as exc:
            return wrapped(name, exc)
        expect = {"game": definition.game_id, "seq": seq, "to": side, "record": record_hash}
        if any(body.get(k) != v for k, v in expect.items()):
            return Discrepancy(N_("does not belong to {record}"), at=name, record=where)
        for key in FIELDS:
            if body.get(key) != fields[key]:
                return Discrepancy(
                    N_("{field} differs from {record}"), at=name, field=key, record=where
                )
    return None


class PacketChecks:
    """The packets of every record, checked here or, for a long archive on a machine
    with more than one core, by a second process that reads the records for itself, a
    run of them at a time (the module docstring)."""

    def __init__(self, gd: GameDir, definition: Definition, records: int):
        self.gd, self.definition = gd, definition
        self._jobs: list[tuple[int, int, Future | None]] = []  # (first, last, the check)
        self._pool = None
        if records >= PARALLEL_FROM and (os.cpu_count() or 1) > 1 and _safe_path_possible():
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # a fresh interpreter, as Windows and macOS start one: the same everywhere,
            # and its imports are done before the replay needs the packets checked; it
            # and the resource tracker the pool starts with it run with a safe path
            spawn = multiprocessing.get_context("spawn")
            with _interrupts_ignored(), _no_current_directory_on_path():
                self._pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=spawn, initializer=_deaf_to_interrupts
                )
                for first in range(1, records + 1, RUN):  # the process starts with the first
                    last = min(first + RUN - 1, records)
                    self._jobs.append((first, last, self._submit(first, last)))

    def _submit(self, first: int, last: int) -> Future | None:
        try:
            return self._pool.submit(_run_failure, str(self.gd.root), first, last)
        except (BrokenProcessPool, OSError):  # boundary: no second process to be had
            return None

    def check(self, where: str, seq: int, record) -> int:
        """Check record `seq`'s packets (raising at once) unless the second process does;
        the number of packets."""
        if self._pool is None:
            return check(self.gd, self.definition, where, seq, record)
        return len(SIDES)

    def first_failure(self, before: int | None = None) -> Discrepancy | None:
        """The first discrepancy in the packets of the records before `before` (of every
        record: None), waiting for the second process."""
        for first, last, job in self._jobs:
            if before is not None and first >= before:
                break
            found = self._result(first, last, job)
            if found is not None and (before is None or found[0] < before):
                return found[1]
        return None

    def _result(self, first: int, last: int, job: Future | None) -> tuple | None:
        """A run's check, done here if the second process could not start or died (a
        frozen executable, a process limit): the check is never skipped."""
        if job is not None:
            try:
                return job.result()
            except (BrokenProcessPool, OSError):  # boundary: the second process died
                pass
        return _run_failure(str(self.gd.root), first, last)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def _safe_path_possible() -> bool:
    """Whether the second process can be kept from importing from the current directory:
    it starts as `python -c ...`, which puts that directory first on its path, and
    `seki verify` is often run inside a received archive, whose files are hostile (a
    `multiprocessing/` folder there would run as our code). PYTHONSAFEPATH keeps it off
    the path, unless this interpreter ignores the environment (-E): then one process
    checks everything."""
    return not sys.flags.ignore_environment


@contextmanager
def _no_current_directory_on_path() -> Iterator[None]:
    """PYTHONSAFEPATH=1 (-P) in the environment the second process (and the pool's
    resource tracker) is started with, and only there."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = before


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ctrl-C ignored while the second process is started: a process started so keeps
    ignoring it (POSIX) from its first instruction, and the first process alone stops
    (`seki: interrupted`), rather than both with a traceback from the second."""
    if threading.current_thread() is not threading.main_thread():  # nothing to protect
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _deaf_to_interrupts() -> None:
    """The second process ignores Ctrl-C (where it did not inherit that: Windows)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_failure(root: str, first: int, last: int) -> tuple[int, Discrepancy] | None:
    """In the second process (here, if it failed): the first record of `first`..`last`
    whose packets are not its own, with the discrepancy (pickled whole). A record that
    cannot be read ends the run: the replay stops there with its own discrepancy, before
    its packets."""
    gd = GameDir(Path(root))
    definition = load(gd)
    for seq in range(first, last + 1):
        try:
            record = chain.read_record(gd, definition, seq)
        except UserError:
            return None
        fields = {key: record.body.get(key) for key in FIELDS}
        where = f"records/{seq:06d}.txt"
        failure = _failure(gd, definition, where, seq, record.hash, fields)
        if failure is not None:
            return seq, failure
    return None
