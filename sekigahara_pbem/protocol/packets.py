"""Packets: what the referee sends each player after every record.

A packet is signed by the referee. Its public part says which game (by id and by the
hash of its definition, protocol/binding.py), record and sequence it belongs to and what the
game waits for. Its one sealed section (JSON in an age file, crypto/agefile.py, which the
player can also open with `age -d`) opens only for its recipient, is refused in any other
packet than its own, and holds the recipient's view, this step's events as the recipient
may see them, and the legal options of the decision asked of it. Everything in it comes
from the engine's redacted view (rules/views.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import NamedTuple

from ..crypto import agefile, sealing, signing
from ..crypto.keys import Identity
from ..refusal import N_, side_words
from ..rules.components import Components
from ..rules.engine import pending
from ..rules.options import options
from ..rules.state_types import State
from ..rules.views import redact_event, view
from . import binding, headers
from . import documents as docs
from .game import Definition, tool_version

PACKET_FORMAT = "seki-packet/1"
SECTION_FORMAT = "seki-packet-section/2"  # JSON in an age file (crypto/agefile.py)
SECTION_FORMAT_V1 = "seki-packet-section/1"  # zlib JSON sealed by crypto/sealing.py
PAD = 1024  # sealed sections are padded to a multiple of this
SEALED_ROOM = 512  # more than any sealed decision adds (a half-hand discard)


@dataclass(frozen=True)
class Packet:
    seq: int
    side: str
    record: str
    view: dict
    events: list
    options: list
    root: str | None  # the commitments' Merkle root (protocol/commitments.py)
    openings: list
    definition: str | None = None  # the hash of the game.txt it belongs to


def _context(definition: Definition, seq: int, side: str) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, seq, definition.players[side].name, "packet")


class Following(NamedTuple):
    """The record a packet follows: its number, its hash, and its commitments' fields
    (`commitments` and `openings`, copied into every packet of the record)."""

    seq: int
    hash: str
    committed: dict


def build(
    definition: Definition,
    referee: Identity,
    comp: Components,
    record: Following,
    state: State,
    events: list,
    side: str,
) -> str:
    seq = record.seq
    section = {
        "format": SECTION_FORMAT,
        "bound": _bound(definition, seq, side),
        "view": view(state, comp, side),
        "events": [redact_event(e, side) for e in events],
        "options": options(state, comp, side),
    }
    token = agefile.seal(_padded(section), definition.players[side])
    body = {
        "format": PACKET_FORMAT,
        "game": definition.game_id,
        **binding.field(definition),
        "seq": seq,
        "to": side,
        "record": record.hash,
        "tool": tool_version(),
        "components": definition.components,
        "pending": pending(state),
        **record.committed,
        "section": token,
    }
    return signing.sign(docs.dump(body), referee)


def _bound(definition: Definition, seq: int, side: str) -> dict:
    """Where a section belongs, inside its plaintext: age does not bind it (agefile.py)."""
    return {"game": definition.game_id, "seq": seq, "to": side, "purpose": "packet"}


def _json(section: dict) -> bytes:
    return json.dumps(section, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _padded(section: dict) -> bytes:
    """The section as JSON, padded with blank lines (JSON ignores them) to a size that does
    not depend on the side's sealed decision (issue 19): the length of the same section
    with that decision left out, plus room for any decision, rounded up to PAD. Otherwise
    the public length of a packet could tell which card was bid."""
    blank = {**section, "view": {**section["view"], "own": {**section["view"]["own"]}}}
    blank["view"]["own"]["sealed"] = None
    size = -(-(len(_json(blank)) + SEALED_ROOM) // PAD) * PAD
    plain = _json(section)
    size = max(size, -(-len(plain) // PAD) * PAD)
    return plain + b"\n" * (size - len(plain))


def _open_section(definition: Definition, token: str, identity: Identity, seq: int, side: str,
                  where: str) -> dict:  # fmt: skip
    """The opened section: an age file (SECTION_FORMAT) whose binding must name this
    packet, or, in archives from before, a section of crypto/sealing.py (zlib JSON)."""
    if not agefile.is_armored(token):
        plain = sealing.open_text(
            docs.unwrap(token), identity.encryption, _context(definition, seq, side)
        )
        text, wanted = docs.inflate(plain, f"{where}: section"), SECTION_FORMAT_V1
    else:
        text = agefile.open_armored(token, identity, f"{where}: section")
        wanted = SECTION_FORMAT
    if len(text) > docs.MAX_INFLATED:
        raise docs.DocumentError(f"{where}: section", N_("too large"))
    section = docs.load_json(text, f"{where}: section")
    if not isinstance(section, dict) or section.get("format") != wanted:
        raise docs.DocumentError(f"{where}: section", N_("expected {what}"), what=wanted)
    if wanted == SECTION_FORMAT and section.get("bound") != _bound(definition, seq, side):
        raise docs.DocumentError(f"{where}: section", N_("belongs to another packet"))
    return section


def open_packet(definition: Definition, text: str, identity: Identity, where: str) -> Packet:
    """Verify the referee's signature and open the recipient's section, of a packet of
    this game's definition: a packet of another game with the same id and referee
    (protocol/binding.py) would have the player answer a position of that game."""
    verified = signing.verify(text, [definition.referee])
    body = docs.load(verified.body, where, PACKET_FORMAT)
    headers.check_game(definition, body, where)
    binding.require(definition, body, where)
    side = docs.field(body, "to", str, where)
    if definition.players.get(side) is None or definition.players[side] != identity.public:
        raise docs.DocumentError(
            f"{where}: to",
            N_("this packet is for {side}, not for your key"),
            side=side_words(side),
        )
    seq = docs.field(body, "seq", int, where)
    token = docs.field(body, "section", str, where)
    section = _open_section(definition, token, identity, seq, side, where)
    return Packet(
        seq=seq,
        side=side,
        record=docs.field(body, "record", str, where),
        view=_mapping(section.get("view", {}), f"{where}: section: view"),
        events=_mappings(section.get("events", []), f"{where}: section: events"),
        options=_mappings(section.get("options", []), f"{where}: section: options"),
        root=(body.get("commitments") or {}).get("root"),
        openings=body.get("openings") or [],
        definition=definition.hash,
    )


def _mapping(value: object, where: str) -> dict:
    """A part of a section the reader walks as the engine writes it: a referee's modified
    client could seal anything there, and the reports and bots would fail on it with an
    internal error."""
    if not isinstance(value, dict):
        raise docs.DocumentError(where, N_("expected a mapping"))
    return value


def _mappings(value: object, where: str) -> list[dict]:
    if not isinstance(value, list):
        raise docs.DocumentError(where, N_("expected a list"))
    for i, item in enumerate(value):
        _mapping(item, f"{where}[{i}]")
    return value
