"""Where a document that came by mail is kept in the player's key directory, and after
what check (docs/play.md, "Your mailbox").

Mail is a stranger's until a signature says otherwise: its From proves nothing. So no
document takes a name by what it claims (a stranger's "packet 12" must not shadow the
referee's, nor its "record 4" the opponent's): each is kept under a hash of its own text,
and what can be checked here is checked before it is kept, against keys the player
already holds, the games it joined (`games/<id>.txt`):

    packets/<game>-<seq>-<side>-<hash>.txt   a packet signed by its game's referee
    notes/<hash>.txt                         a sealed note signed by a joined game's referee
    joins/<game>-<side>-<hash>.txt           the other side's join, signed by that side
    invitations/<game>-<hash>.txt            a game definition, signed by the referee it
                                             names (nothing the player holds vouches for
                                             it: the player compares its fingerprint)
    two-party/<game>/<hash>.txt              a two-party record or reveal: its game's keys
                                             are in the side's directory, so `seki play
                                             DIR` checks it there (play/two_party.py)

Anything else, and anything whose check fails, is not kept here; the raw mail stays in
`mail/processed/`.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..crypto import signing
from ..protocol import documents as docs
from ..protocol import game, joins
from ..protocol.notes import is_note
from ..protocol.store import write_atomic
from ..refusal import Refusal
from . import inbox

TWO_PARTY = "two-party"  # the key directory's folder of two-party records and reveals
TWO_PARTY_FORMATS = ("format: seki-2p-record/1", "format: seki-2p-reveal/1")
_GAME_LINE = re.compile(r"^game: ('?)([A-Za-z0-9][A-Za-z0-9._-]{0,63})\1$", re.MULTILINE)
HEAD = 2000  # characters of a document in which its format line is looked for


def digest(text: str) -> str:
    """The name a document is kept under: a hash of its own text."""
    return docs.sha256(text)[:24]


def keep(home: Path, games: dict[str, game.Definition], document: str) -> Path | None:
    """File one document from the mail, checked against the games joined
    (`inbox.joined_games`); where it was kept, or None if it was not."""
    head = document[:HEAD]
    if is_note(document):
        return _note(home, document, games)
    if f"format: {game.GAME_FORMAT}" in head:
        return _invitation(home, document)
    if f"format: {joins.JOIN_FORMAT}" in head:
        return _join(home, document, games)
    if any(f in head for f in TWO_PARTY_FORMATS):
        return _two_party(home, document)
    packet = inbox.authentic(document, games)
    if packet is None:
        return None
    name = f"{packet['game']}-{packet['seq']:06d}-{packet['to']}-{digest(document)}.txt"
    return _write(home / "packets" / name, document)


def _write(path: Path, text: str) -> Path:
    if not path.exists():  # else the same text is kept there already
        write_atomic(path, text)
    return path


def _note(home: Path, document: str, games: dict[str, game.Definition]) -> Path | None:
    """A note the referee of a joined game signed (it is opened, with the player's key,
    when shown)."""
    try:
        signing.verify(document, [d.referee for d in games.values()])
    except Refusal:  # a stranger's
        return None
    return _write(home / "notes" / f"{digest(document)}.txt", document)


def _invitation(home: Path, document: str) -> Path | None:
    """A game definition, signed by the referee it names: whether to join it is asked
    (or, for a bot, decided) by play/autoplay.py."""
    try:  # plain YAML first: anyone can mail one, and an alias could make it huge
        docs.load(signing.split(document)[0], "invitation", game.GAME_FORMAT, plain=True)
        definition = game.parse(document, "invitation")
    except Refusal:
        return None
    return _write(home / "invitations" / f"{definition.game_id}-{digest(document)}.txt", document)


def _join(home: Path, document: str, games: dict[str, game.Definition]) -> Path | None:
    """The other side's join of a game this player joined."""
    found = other_join(games, document)
    if found is None:
        return None
    definition, join = found
    name = f"{definition.game_id}-{join.side}-{digest(document)}.txt"
    return _write(home / "joins" / name, document)


def other_join(
    games: dict[str, game.Definition], text: str
) -> tuple[game.Definition, joins.Join] | None:
    """A join of one of these games, signed by the side it names (protocol/joins.py), with
    its game; None for a stranger's. Its body is read only once a player of one of the
    games has signed it."""
    players = {k.key_id: k for d in games.values() for k in d.players.values()}
    try:
        verified = signing.verify(text, players.values())
        game_id = docs.load(verified.body, "join", joins.JOIN_FORMAT, plain=True).get("game")
        definition = games.get(game_id) if isinstance(game_id, str) else None
        if definition is None:
            return None
        return definition, joins.parse_join(definition, text, "join")
    except Refusal:
        return None


def _two_party(home: Path, document: str) -> Path | None:
    """A two-party record or reveal, kept by its hash under the game it names, to be
    checked against that game's keys when `seki play DIR` takes it in."""
    found = _GAME_LINE.search(document[:HEAD])
    if found is None:
        return None
    return _write(home / TWO_PARTY / found.group(2) / f"{digest(document)}.txt", document)
