"""Packets: what the referee sends each player after every record.

A packet is signed by the referee. Its public part says which game, record and sequence
it belongs to and what the game waits for. Its one sealed section (zlib-compressed JSON)
opens only for its recipient, only in this game at this sequence, and holds the
recipient's view, this step's events as the recipient may see them, and the legal
options of the decision asked of it. Everything in it comes from the engine's redacted
view (rules/views.py).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

from ..crypto import sealing, signing
from ..crypto.keys import Identity
from ..refusal import WRONG_GAME
from ..rules.components import Components
from ..rules.engine import pending
from ..rules.options import options
from ..rules.views import redact_event, view
from . import documents as docs
from .game import Definition, tool_version

PACKET_FORMAT = "seki-packet/1"
SECTION_FORMAT = "seki-packet-section/1"
PAD = 1024  # sealed sections are padded to a multiple of this
SEALED_ROOM = 512  # more than any sealed decision adds, compressed (a half-hand discard)


@dataclass(frozen=True)
class Packet:
    seq: int
    side: str
    record: str
    view: dict
    events: list
    options: list
    root: str | None  # the commitments' Merkle root (pbem/commitments.py)
    openings: list


def _context(definition: Definition, seq: int, side: str) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, seq, definition.players[side].name, "packet")


def build(
    definition: Definition,
    referee: Identity,
    comp: Components,
    seq: int,
    record_hash: str,
    state: dict,
    events: list,
    side: str,
    committed: dict,
) -> str:
    section = {
        "format": SECTION_FORMAT,
        "view": view(state, comp, side),
        "events": [redact_event(e, side) for e in events],
        "options": options(state, comp, side),
    }
    plain = _padded(section)
    token = sealing.seal_text(
        plain, definition.players[side].encryption, _context(definition, seq, side)
    )
    body = {
        "format": PACKET_FORMAT,
        "game": definition.game_id,
        "seq": seq,
        "to": side,
        "record": record_hash,
        "tool": tool_version(),
        "components": definition.components,
        "pending": pending(state),
        **committed,
        "section": docs.wrap(token),
    }
    return signing.sign(docs.dump(body), referee)


def _compressed(section: dict) -> bytes:
    return zlib.compress(json.dumps(section, sort_keys=True, ensure_ascii=False).encode(), 9)


def _padded(section: dict) -> bytes:
    """The compressed section, padded with zero bytes (after the zlib stream, which ends
    by itself) to a size that does not depend on the side's sealed decision (issue 19):
    the length of the same section with that decision left out, plus room for any
    decision, rounded up to PAD. Otherwise the public length of a packet could tell
    which card was bid."""
    blank = {**section, "view": {**section["view"], "own": {**section["view"]["own"]}}}
    blank["view"]["own"]["sealed"] = None
    size = -(-(len(_compressed(blank)) + SEALED_ROOM) // PAD) * PAD
    plain = _compressed(section)
    size = max(size, -(-len(plain) // PAD) * PAD)
    return plain + b"\0" * (size - len(plain))


def open_packet(definition: Definition, text: str, identity: Identity, where: str) -> Packet:
    """Verify the referee's signature and open the recipient's section."""
    verified = signing.verify(text, [definition.referee])
    body = docs.load(verified.body, where, PACKET_FORMAT)
    if docs.field(body, "game", str, where) != definition.game_id:
        raise docs.DocumentError(f"{where}: game", f"not for game {definition.game_id}", WRONG_GAME)
    side = docs.field(body, "to", str, where)
    if definition.players.get(side) is None or definition.players[side] != identity.public:
        raise docs.DocumentError(f"{where}: to", f"this packet is for {side}, not for your key")
    seq = docs.field(body, "seq", int, where)
    token = docs.unwrap(docs.field(body, "section", str, where))
    plain = sealing.open_text(token, identity.encryption, _context(definition, seq, side))
    inflated = docs.inflate(plain, f"{where}: section")
    try:
        section = json.loads(inflated)
    except ValueError:
        raise docs.DocumentError(f"{where}: section", "does not hold JSON") from None
    if not isinstance(section, dict) or section.get("format") != SECTION_FORMAT:
        raise docs.DocumentError(f"{where}: section", f"expected {SECTION_FORMAT}")
    return Packet(
        seq=seq,
        side=side,
        record=docs.field(body, "record", str, where),
        view=section.get("view", {}),
        events=section.get("events", []),
        options=section.get("options", []),
        root=(body.get("commitments") or {}).get("root"),
        openings=body.get("openings") or [],
    )
