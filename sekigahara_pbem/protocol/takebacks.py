"""Takebacks: undoing the last adjudication, only when both players sign for it.

One player signs a request naming the record to undo (the last one) by number and hash;
the other player signs a consent naming the request by its hash, with `accept` or
`refuse`. The referee then writes a new record whose state is the state before the undone
one; the undone record stays in the chain. A request is refused when the undone step
revealed a committed item (any opening) or showed the requester a random draw (cards or
blocks drawn for it), because the requester could then replay the step knowing the
outcome (docs/rulings.md, "Takebacks").

    format: seki-takeback/1          format: seki-consent/1
    game: <id>                       game: <id>
    definition: <sha256 of game.txt> definition: <sha256 of game.txt>
    side: <requester>                side: <the other side>
    undo: <seq of the last record>   request: <sha256 of the signed request>
    record: <hash of that record>    answer: accept | refuse
    reason: <free text>

Both name their game's definition (protocol/binding.py); a request also names its record by
hash, and an answer its request, so neither can be carried into another game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..refusal import N_, Phrase, side_words
from ..rules.vocab import other
from . import binding, headers
from . import documents as docs
from .game import Definition

REQUEST_FORMAT = "seki-takeback/1"
CONSENT_FORMAT = "seki-consent/1"
ANSWERS = ("accept", "refuse")
RANDOM_EVENTS = ("draw", "reinforcements")
MAX_REASON = 500


@dataclass(frozen=True)
class Request:
    side: str
    undo: int
    record: str
    reason: str
    text: str

    @property
    def hash(self) -> str:
        return docs.sha256(self.text)


@dataclass(frozen=True)
class Consent:
    side: str
    request: str
    answer: str
    text: str


def request_body(definition: Definition, side: str, undo: int, record: str, reason: str) -> str:
    return docs.dump(
        {
            "format": REQUEST_FORMAT,
            "game": definition.game_id,
            **binding.field(definition),
            "side": side,
            "undo": undo,
            "record": record,
            "reason": reason,
        }
    )


def consent_body(definition: Definition, side: str, request: str, answer: str) -> str:
    return docs.dump(
        {
            "format": CONSENT_FORMAT,
            "game": definition.game_id,
            **binding.field(definition),
            "side": side,
            "request": request,
            "answer": answer,
        }
    )


def parse_request(definition: Definition, text: str, where: str, archived: bool = False) -> Request:
    """A takeback request, signed by the player of its side for this game's definition
    (`archived`: or for none, a file of the game's own archive from before documents were
    bound, protocol/binding.py)."""
    head = headers.signed(definition, text, where, REQUEST_FORMAT, archived=archived)
    undo = docs.field(head.body, "undo", int, where)
    reason = str(head.body.get("reason") or "")[:MAX_REASON]
    return Request(head.side, undo, docs.field(head.body, "record", str, where), reason, text)


def parse_consent(definition: Definition, text: str, where: str, archived: bool = False) -> Consent:
    """An answer to a takeback request, checked as `parse_request`."""
    head = headers.signed(definition, text, where, CONSENT_FORMAT, archived=archived)
    answer = docs.field(head.body, "answer", str, where)
    if answer not in ANSWERS:
        raise docs.DocumentError(f"{where}: answer", N_("expected accept or refuse"))
    return Consent(head.side, docs.field(head.body, "request", str, where), answer, text)


def check_consent(request: Request, consent: Consent, where: str) -> None:
    if consent.request != request.hash:
        raise docs.DocumentError(f"{where}: request", N_("does not name this takeback request"))
    if consent.side != other(request.side):
        raise docs.DocumentError(f"{where}: side", N_("only the other player can answer a request"))


def why_not_undoable(seq: int, record_body: dict, requester: str) -> Phrase | None:
    """The reason record `seq` cannot be taken back at `requester`'s request, or None, in
    words put in the reader's language where shown. Everything it needs is in the record's
    public part (a draw's event names the side that saw the drawn items), so verify asks
    it before the reveal too."""
    if seq < 2:
        return Phrase(N_("the setup (record 1) cannot be taken back"))
    if record_body.get("kind") == "takeback":
        return Phrase(N_("record {seq} is itself a takeback"), seq=seq)
    if record_body.get("openings"):
        n = len(record_body["openings"])
        if n == 1:
            return Phrase(N_("record {seq} revealed 1 committed item"), seq=seq)
        return Phrase(N_("record {seq} revealed {n} committed items"), seq=seq, n=n)
    for e in record_body.get("events") or []:
        if e.get("type") in RANDOM_EVENTS and e.get("side") == requester:
            return Phrase(
                N_("record {seq} showed {side} a random draw ({event}, rule {rule})"),
                seq=seq, side=side_words(requester), event=e["type"], rule=e["rule"],
            )  # fmt: skip
    if record_body.get("events") and record_body["events"][-1].get("type") == "game_over":
        return Phrase(N_("record {seq} ended the game"), seq=seq)
    return None
