"""The hash chain: one signed record per accepted input, with the sealed full state, the
public view and one packet per player beside it.

A record names the previous record's hash (the definition's for the first), the hashes of
the inputs it applied, the hash of the public view and of the sealed state, the public
events, what the game waits for and since which record each side has been asked.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..crypto import sealing, signing
from ..crypto.keys import Identity
from ..refusal import N_, Code, Refusal
from ..rules.state import canonical
from ..rules.state_types import State
from . import commitments
from . import documents as docs
from .clock import format_time
from .game import Definition, Secrets
from .store import GameDir

if TYPE_CHECKING:  # reading a record needs no component set (verify's second process)
    from collections.abc import Callable

    from ..rules.components import Components

RECORD_FORMAT = "seki-record/1"
STATE_RECIPIENT = "referee-state"


@dataclass(frozen=True)
class Link:
    """Where a record says it stands in its game's chain: its place, the hash it names as
    the one before (`prev`; the first names the game's) and when its author wrote it.
    Every record of either mode says these three (a referee's `seq`, `prev` and `time`;
    a two-party side's `n`, `prev` and `written`), and one walk checks them (`Walk`)."""

    place: int
    prev: str
    time: datetime


class Walk:
    """The chain walked one record at a time, by the referee's verify, a two-party side
    taking in the other's record and a two-party archive's verify alike: each record must
    stand at the next place, name the hash of the one before and be dated no earlier
    than it (a record back-dated would start the other side's time, or a deadline, before
    it was its turn). `error` is the class the walker raises (a discrepancy in an archive,
    a cheat proved by the receiver); `rule` the section of the docs that asks it."""

    def __init__(
        self,
        place: int,
        prev: str,
        after: datetime | None,
        error: Callable[..., Refusal],
        rule: str | None = None,
    ):
        self.place, self.prev, self.after = place, prev, after
        self.error, self.rule = error, rule

    def step(self, link: Link, text_hash: str, where: str) -> None:
        """Check that `link` (of the record whose text hashes to `text_hash`) follows, then
        stand on it."""
        if link.place != self.place:
            raise self.error(
                N_("record {n} where {expected} comes next"),
                code=Code.STALE, rule=self.rule, at=where, n=link.place, expected=self.place,
            )  # fmt: skip
        if link.prev != self.prev:
            raise self.error(
                N_("it does not follow the last record (prev)"),
                code=Code.STALE, rule=self.rule, at=where,
            )  # fmt: skip
        if self.after is not None and link.time < self.after:
            raise self.error(
                N_(
                    "{record} is dated {time}, before the record it follows ({before}): times "
                    "never go back"
                ),
                code=Code.CHEAT, rule=self.rule, record=where, time=format_time(link.time),
                before=format_time(self.after),
            )  # fmt: skip
        self.place, self.prev, self.after = link.place + 1, text_hash, link.time


@dataclass(frozen=True)
class Record:
    seq: int
    body: dict
    text: str

    @property
    def hash(self) -> str:
        return docs.sha256(self.text)


def public_hash(state: State, comp: Components) -> str:
    from ..rules.views import view  # the engine's tables: not for `seki status`, which reads

    return docs.sha256(canonical(view(state, comp, None)))


def _state_context(definition: Definition, seq: int) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, seq, STATE_RECIPIENT, "state")


def seal_state(definition: Definition, seq: int, state: State) -> str:
    plain = zlib.compress(canonical(state).encode("utf-8"), 9)
    return docs.wrap(
        sealing.seal_text(plain, definition.state_key, _state_context(definition, seq))
    )


def seal_rejected(definition: Definition, name: str, data: bytes, reason: str) -> str:
    """A refused input and the reason, sealed to the state key (issue 11): kept, so
    nothing a player sent is lost, but readable only by the referee until the reveal (a
    refused order, and its reason, may name what only its sender may know). Padded to
    1 KiB, so the size says little."""
    plain = json.dumps({"name": name, "reason": reason, "data": base64.b64encode(data).decode()})
    padded = plain.encode() + b" " * (-len(plain.encode()) % 1024)
    context = sealing.SealContext(definition.game_id, 0, STATE_RECIPIENT, "rejected")
    return docs.wrap(sealing.seal_text(padded, definition.state_key, context))


def open_state(definition: Definition, secrets: Secrets, seq: int, text: str) -> dict:
    return json.loads(open_state_bytes(definition, secrets, seq, text))


def open_state_bytes(definition: Definition, secrets: Secrets, seq: int, text: str) -> bytes:
    """A sealed state as the referee sealed it: its canonical JSON, encoded (verify
    compares it with the replayed state's, byte for byte)."""
    plain = sealing.open_text(docs.unwrap(text), secrets.state_key, _state_context(definition, seq))
    return docs.inflate(plain, f"sealed/{seq:06d}.txt")


def asked_since(before: list, after: list, asked: dict, actor: str | None, seq: int) -> dict:
    """For each side asked to decide now, the record since which the same decision has
    stood unanswered; a side that acted, or whose decision changed, is asked anew."""
    out = {}
    for d in after:
        side = d["side"]
        same = side != actor and d in before and side in asked
        out[side] = asked[side] if same else seq
    return out


def commitment_fields(
    key: bytes, seq: int, before: State | None, state: State, events: list
) -> dict:
    """The record's commitments to every hidden item, and the openings of the items its
    public events show (protocol/commitments.py)."""
    from ..rules.views import redact_event  # as `public_hash`

    public = [redact_event(e, None) for e in events]
    opened = []
    if before is not None:  # first: the last leaves computed are this record's
        previous = commitments.leaves(before, key, seq - 1)
        opened = commitments.openings(previous, state, public)
    now = commitments.leaves(state, key, seq)
    return {
        "commitments": {"root": commitments.root(now), "leaves": len(now)},
        "openings": opened,
    }


def sign_record(referee: Identity, seq: int, body: dict) -> Record:
    return Record(seq, body, signing.sign(docs.dump(body), referee))


def read_record(gd: GameDir, definition: Definition, seq: int) -> Record:
    path = gd.record(seq)
    text = docs.read_capped(path)
    verified = signing.verify(text, [definition.referee])
    body = docs.load(verified.body, str(path), RECORD_FORMAT)
    if body.get("seq") != seq or body.get("game") != definition.game_id:
        raise docs.DocumentError(str(path), N_("record is out of place (seq or game differs)"))
    return Record(seq, body, text)
