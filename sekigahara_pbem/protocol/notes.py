"""Sealed notes: why the referee's robot refused a player's file, told to that player
alone. A refusal can quote what only the file's signer may know ("you hold: …") and mail
crosses servers in the clear, so the reasons travel sealed to the signer's key in an age
file, as a packet's section does (crypto/agefile.py); the mail's body says only that a
file was refused and how to read the note
(`seki view NOTE --key KEY`, or `seki play`, which shows the notes it fetches).

A note goes to the side whose key signed the refused file (`addressee`), never to whoever
mailed it: the opponent may forward a player's file to learn what its refusal says.

The sealed text is padded to a multiple of PAD bytes, so its length tells little about
the reasons (issue 19).
"""

from __future__ import annotations

import json

from ..crypto import agefile, sealing, signing
from ..crypto.keys import Identity
from ..refusal import N_
from . import documents as docs
from . import headers
from .game import Definition

NOTE_FORMAT = "seki-note/2"  # the section an age file (seki-note/1: crypto/sealing.py)
NOTE_FORMATS = ("seki-note/1", NOTE_FORMAT)
PAD = 1024
MAX_NOTE = 64 * PAD  # a note holds a few reasons; a longer sealed text is refused


def _bound(definition: Definition, seq: int, side: str) -> dict:
    """Where a note belongs, inside its plaintext (age does not bind it)."""
    return {"game": definition.game_id, "seq": seq, "to": side, "purpose": "note"}


def _context(definition: Definition, seq: int, side: str) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, seq, definition.players[side].name, "note")


def addressee(definition: Definition, text: str) -> str | None:
    """The side whose key signed the document `text`: the only side a note about it may
    be sealed to. None where no player signed it (unsigned, a bad signature, a turn file
    the referee sealed at rest): its reasons go to nobody."""
    try:
        verified = signing.verify(text, definition.players.values())
    except signing.SignatureError:
        return None
    return definition.side_of(verified.signer)


def build(
    definition: Definition, referee: Identity, side: str, seq: int, reasons: list[str]
) -> str:
    """A note to `side` (after record `seq`) holding `reasons`, signed by the referee."""
    section = {"format": NOTE_FORMAT, "bound": _bound(definition, seq, side), "reasons": reasons}
    padded = json.dumps(section, ensure_ascii=False).encode("utf-8")
    padded += b" " * (-len(padded) % PAD)  # JSON ignores trailing blanks
    token = agefile.seal(padded, definition.players[side])
    body = {"format": NOTE_FORMAT, "game": definition.game_id, "seq": seq, "to": side,
            "section": token}  # fmt: skip
    return signing.sign(docs.dump(body), referee)


def is_note(text: str) -> bool:
    return any(f"format: {f}" in text[:400] for f in NOTE_FORMATS)


def open_note(definition: Definition, text: str, identity: Identity, where: str) -> list[str]:
    """The reasons in a note sent to `identity`, after checking the referee's signature."""
    verified = signing.verify(text, [definition.referee])
    body = docs.load(verified.body, where, NOTE_FORMATS)
    headers.check_game(definition, body, where)
    side = docs.field(body, "to", str, where)
    if definition.players.get(side) != identity.public:
        raise docs.DocumentError(
            f"{where}: to", N_("this note is for {side}, not for your key"), side=side
        )
    token = docs.field(body, "section", str, where)
    if len(token) > MAX_NOTE * 2:
        raise docs.DocumentError(f"{where}: section", N_("larger than any note"))
    seq = docs.field(body, "seq", int, where)
    fresh = body["format"] == NOTE_FORMAT
    if fresh:
        plain = agefile.open_armored(token, identity, f"{where}: section")
    else:  # notes sealed before notes were age files
        context = _context(definition, seq, side)
        plain = sealing.open_text(docs.unwrap(token), identity.encryption, context)
    section = docs.load_json(plain, f"{where}: section")
    bound = section.get("bound") if isinstance(section, dict) else None
    if fresh and bound != _bound(definition, seq, side):
        raise docs.DocumentError(f"{where}: section", N_("belongs to another note"))
    reasons = section.get("reasons") if isinstance(section, dict) else None
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise docs.DocumentError(f"{where}: section", N_("holds no list of reasons"))
    return reasons
