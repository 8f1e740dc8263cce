"""`seki verify`'s reading ahead: each record read with its signature checked, its two
packets checked against it (signed by the referee, they must belong to it and repeat its
pending decisions, commitments and openings), and a turn file's record's file opened
(its signatures checked and, once the state key is revealed, the turn inside it read).

None of that depends on the replay, and it was half of a verify: in a long archive, on a
machine with a second core, a second process does it a run of records ahead of the
replay (issue 18, issue 38), and hands back the records and turns it read. The second
process only ever speeds the walk up: whatever it could not read or found wrong, the
first process reads or checks again itself, so the discrepancy reported is the one a
single process finds, where it finds it (a packet's at the end of its record, and before
anything the replay finds in a later record).
"""

from __future__ import annotations

import os
from concurrent.futures import BrokenExecutor, Future  # .process: only where a pool starts
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from .. import second_process
from ..crypto import signing
from ..protocol import chain, turns
from ..protocol import documents as docs
from ..protocol.game import Definition, load
from ..protocol.store import GameDir
from ..refusal import N_, Refusal, UserError
from ..rules.vocab import SIDES
from .discrepancy import Discrepancy, wrapped

if TYPE_CHECKING:  # annotations only: imported where a pool starts (`ReadAhead`)
    from concurrent.futures import ProcessPoolExecutor

PARALLEL_FROM = 64  # records: below, starting a second process costs more than it saves
RUN = 16  # records the second process reads per job
FIELDS = ("pending", "commitments", "openings")  # what a packet repeats of its record
UNREAD = "unread"  # a turn file the second process could not open: opened here again


class Ahead(NamedTuple):
    """What the second process read of one record: the record, whether its packets hold,
    and for a turn file's record (its body names no kind) the file opened as
    `archived` opens it (UNREAD: it refused; None: no turn file)."""

    record: chain.Record
    packets_hold: bool
    turn: tuple | str | None


def check(gd: GameDir, definition: Definition, where: str, seq: int, record) -> int:
    """Raise Discrepancy unless record `seq`'s packets are its own; the number checked."""
    failure = _failure(gd, definition, where, seq, record)
    if failure is not None:
        raise failure
    return len(SIDES)


def _failure(
    gd: GameDir, definition: Definition, where: str, seq: int, record: chain.Record
) -> Discrepancy | None:
    fields = {key: record.body.get(key) for key in FIELDS}
    for side in SIDES:
        path = gd.packet(seq, side)
        name = f"packets/{path.name}"
        try:
            verified = signing.verify(docs.read_capped(path), [definition.referee])
            body = docs.load(verified.body, name, "seki-packet/1")
        except Refusal as exc:
            return wrapped(name, exc)
        expect = {"game": definition.game_id, "seq": seq, "to": side, "record": record.hash}
        if any(body.get(k) != v for k, v in expect.items()):
            return Discrepancy(N_("does not belong to {record}"), at=name, record=where)
        for key in FIELDS:
            if body.get(key) != fields[key]:
                return Discrepancy(
                    N_("{field} differs from {record}"), at=name, field=key, record=where
                )
    return None


class ReadAhead:
    """The records of the walk, read here when asked or, for a long archive on a machine
    with more than one core, by a second process a run ahead (the module docstring).
    `state_key`: the revealed key that opens sealed turn files (None before the reveal)."""

    def __init__(self, gd: GameDir, definition: Definition, records: int, state_key: bytes | None):
        self.gd, self.definition, self.state_key = gd, definition, state_key
        self._key = None if state_key is None else _key(state_key)  # for the files read here
        self._jobs: dict[int, tuple[int, Future | None]] = {}  # first -> (last, the reading)
        self._read: dict[int, Ahead] = {}  # read ahead, not yet taken by the walk
        self._pool: ProcessPoolExecutor | None = None
        if records >= PARALLEL_FROM and (os.cpu_count() or 1) > 1 and second_process.possible():
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # a fresh interpreter, as Windows and macOS start one: the same everywhere,
            # and its imports are done before the replay needs the packets checked; it
            # and the resource tracker the pool starts with it run with a safe path
            spawn = multiprocessing.get_context("spawn")
            with second_process.starting():
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=spawn,
                    initializer=second_process.deaf_to_interrupts,
                )
                # from the last run back: the walk comes up from the first, and reads
                # itself each run the second process has not begun when it gets there
                for first in reversed(range(1, records + 1, RUN)):
                    last = min(first + RUN - 1, records)
                    self._jobs[first] = (last, self._submit(first, last))

    def _submit(self, first: int, last: int) -> Future | None:
        pool = cast("ProcessPoolExecutor", self._pool)  # not None: called once it has started
        try:
            return pool.submit(_run, str(self.gd.root), first, last, self.state_key)
        except (BrokenExecutor, OSError):  # boundary: no second process to be had
            return None

    def _ahead(self, seq: int) -> Ahead | None:
        """Record `seq` as the second process read it; None if it did not (no second
        process reads, or it had not begun the run when the walk got there: the walk
        reads the run itself), waiting for a run the second process is reading."""
        first = seq - (seq - 1) % RUN
        if seq in self._read or first not in self._jobs:
            return self._read.get(seq)
        _last, job = self._jobs.pop(first)
        if job is not None and not job.cancel():
            for entry in self._result(job):
                self._read[entry.record.seq] = entry
        return self._read.get(seq)

    def record(self, seq: int) -> chain.Record:
        """Record `seq`, its signature checked (raising as `chain.read_record`)."""
        entry = self._ahead(seq)
        if entry is None:
            return chain.read_record(self.gd, self.definition, seq)
        return entry.record

    def turn_file(self, where: str, seq: int, body: dict) -> tuple:
        """The turn file of record `seq` opened, as `archived` (raising as it)."""
        entry = self._read.get(seq)
        if entry is None or not isinstance(entry.turn, tuple):  # none, or UNREAD
            return archived(self.gd, self.definition, where, body, self._key)
        return entry.turn

    def check(self, where: str, seq: int, record: chain.Record) -> int:
        """Check record `seq`'s packets, here unless the second process found them sound
        (raising at once, as one process does); the number of packets. The walk is done
        with the record."""
        entry = self._read.pop(seq, None)
        if entry is None or not entry.packets_hold:
            return check(self.gd, self.definition, where, seq, record)
        return len(SIDES)

    def _result(self, job: Future | None) -> list[Ahead]:
        """A job's records; none if the second process could not start or died (a frozen
        executable, a process limit): they are read and checked here, never skipped."""
        if job is not None:
            try:
                return job.result()
            except (BrokenExecutor, OSError):  # boundary: the second process died
                pass
        return []

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def archived(gd: GameDir, definition: Definition, where: str, body: dict, key) -> tuple:
    """A record's turn file: what it shows in the clear (a sealed file's envelope), the
    turn itself once the state key is revealed (or for a clear file), and its text."""
    inputs = body.get("inputs") or []
    if len(inputs) != 1 or not isinstance(inputs[0], dict):
        raise Discrepancy(N_("expected one input"), at=where)
    name = str(inputs[0].get("file", ""))
    path = gd.root / name
    if path.parent.name != "turns" or not path.is_file():
        raise Discrepancy(N_("input {name} is missing"), at=where, name=name)
    try:
        text = docs.read_capped(path)
        if not turns.is_sealed(text):  # archives from before turn files were sealed
            turn = turns.parse(definition, text, name, archived=True)
            return turns.shown(turn, definition), turn, text
        if key is None:
            return turns.envelope(definition, text, name, archived=True), None, text
        shown, turn, _ = turns.opened(definition, text, key, name, archived=True)
    except Refusal as exc:
        raise wrapped(name, exc) from None
    return shown, turn, text


def _key(raw: bytes) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(raw)


def _run(root: str, first: int, last: int, state_key: bytes | None) -> list[Ahead]:
    """In the second process: records `first`..`last` read, their packets checked and
    their turn files opened. A record that cannot be read ends the run: the first
    process reads it again, and stops there with its own discrepancy."""
    gd = GameDir(Path(root))
    definition = load(gd)
    key = None if state_key is None else _key(state_key)
    out = []
    for seq in range(first, last + 1):
        try:
            record = chain.read_record(gd, definition, seq)
        except UserError:
            break
        where = f"records/{seq:06d}.txt"
        holds = _failure(gd, definition, where, seq, record) is None
        turn: tuple | str | None = None
        if seq > 1 and record.body.get("kind") is None:
            try:
                turn = archived(gd, definition, where, record.body, key)
            except UserError:
                turn = UNREAD
        out.append(Ahead(record, holds, turn))
    return out
