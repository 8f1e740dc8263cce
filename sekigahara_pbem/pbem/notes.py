"""Sealed notes: why the referee's robot refused a player's file, told to that player
alone. A refusal can quote what only the sender may know ("you hold: …") and mail crosses
servers in the clear, so the reasons travel sealed to the sender's key, as a packet's
section does; the mail's body says only that a file was refused and how to read the note
(`seki view NOTE --key KEY`, or `seki play`, which shows the notes it fetches).

The sealed text is padded to a multiple of PAD bytes, so its length tells little about
the reasons (issue 19).
"""

from __future__ import annotations

import json

from ..crypto import sealing, signing
from ..crypto.keys import Identity
from ..refusal import WRONG_GAME
from . import documents as docs
from .game import Definition

NOTE_FORMAT = "seki-note/1"
PAD = 1024
MAX_NOTE = 64 * PAD  # a note holds a few reasons; a longer sealed text is refused


def _context(definition: Definition, seq: int, side: str) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, seq, definition.players[side].name, "note")


def build(
    definition: Definition, referee: Identity, side: str, seq: int, reasons: list[str]
) -> str:
    """A note to `side` (after record `seq`) holding `reasons`, signed by the referee."""
    plain = json.dumps({"format": NOTE_FORMAT, "reasons": reasons}, ensure_ascii=False)
    padded = plain.encode("utf-8")
    padded += b" " * (-len(padded) % PAD)  # JSON ignores trailing blanks
    token = sealing.seal_text(padded, definition.players[side].encryption,
                              _context(definition, seq, side))  # fmt: skip
    body = {"format": NOTE_FORMAT, "game": definition.game_id, "seq": seq, "to": side,
            "section": docs.wrap(token)}  # fmt: skip
    return signing.sign(docs.dump(body), referee)


def is_note(text: str) -> bool:
    return f"format: {NOTE_FORMAT}" in text[:400]


def open_note(definition: Definition, text: str, identity: Identity, where: str) -> list[str]:
    """The reasons in a note sent to `identity`, after checking the referee's signature."""
    verified = signing.verify(text, [definition.referee])
    body = docs.load(verified.body, where, NOTE_FORMAT)
    if docs.field(body, "game", str, where) != definition.game_id:
        raise docs.DocumentError(f"{where}: game", f"not for game {definition.game_id}", WRONG_GAME)
    side = docs.field(body, "to", str, where)
    if definition.players.get(side) != identity.public:
        raise docs.DocumentError(f"{where}: to", f"this note is for {side}, not for your key")
    token = docs.unwrap(docs.field(body, "section", str, where))
    if len(token) > MAX_NOTE * 2:
        raise docs.DocumentError(f"{where}: section", "larger than any note")
    seq = docs.field(body, "seq", int, where)
    plain = sealing.open_text(token, identity.encryption, _context(definition, seq, side))
    try:
        section = json.loads(plain)
    except ValueError:
        raise docs.DocumentError(f"{where}: section", "does not hold JSON") from None
    reasons = section.get("reasons") if isinstance(section, dict) else None
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise docs.DocumentError(f"{where}: section", "holds no list of reasons")
    return reasons
