"""Which packet to play: the newest *authentic* one in a folder (signed by the referee of
a game the player joined) that asks something of the player and that it has not answered
yet with `seki play`.

Anything in the folder may be a stranger's: a file that claims to be packet 999999 must
not hide the real packet 12. So a packet counts only once its signature checks against
its game's referee, and its public part (game, recipient, sequence, what it waits for)
is read only then; the chosen packet is then opened like any other. Answered packets are
remembered per game in the key directory (`games/<game>.answered.json`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..crypto import signing
from ..crypto.keys import Identity
from ..crypto.keystore import default_dir
from ..protocol import binding
from ..protocol import documents as docs
from ..protocol.game import Definition, parse
from ..protocol.packets import PACKET_FORMAT
from ..protocol.store import write_atomic
from ..refusal import N_, Code, Refusal

MAX_FILES = 10_000  # files looked at in one folder


def _answered_path(game_id: str) -> Path:
    return default_dir() / "games" / f"{game_id}.answered.json"


def answered(game_id: str) -> set[int]:
    """The packets of a game this player has answered with seki play."""
    path = _answered_path(game_id)  # written whole by `remember`
    return set(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else set()


def remember(game_id: str, seq: int) -> None:
    done = answered(game_id) | {seq}
    write_atomic(_answered_path(game_id), json.dumps(sorted(done)))


def joined_games(home: Path) -> dict[str, Definition]:
    """The games this key directory has joined (`games/<id>.txt`, written by seki join):
    their referees' keys are the only ones a packet may be signed with."""
    folder = home / "games"
    found: dict[str, Definition] = {}
    for path in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
        try:
            definition = parse(docs.read_capped(path), str(path))
        except Refusal:  # not a game this key can play: never chosen
            continue
        if path.stem == definition.game_id:
            found[definition.game_id] = definition
    return found


def authentic(text: str, games: dict[str, Definition]) -> dict | None:
    """A packet's public fields (game, seq, to, pending) once its signature checks against
    the referee of the game it names and it names that game's definition (an older game
    of the same id and referee is another game, protocol/binding.py), else None (any other
    document, or a stranger's). Nothing of it is parsed before the signature is checked."""
    if PACKET_FORMAT not in text[:400]:
        return None
    referees = {d.referee.key_id: d.referee for d in games.values()}
    try:
        verified = signing.verify(text, referees.values())
        data = docs.load(verified.body, "packet", PACKET_FORMAT)
    except Refusal:  # a stranger's signature, or not a packet
        return None
    game, to, seq = data.get("game"), data.get("to"), data.get("seq")
    if not (isinstance(game, str) and isinstance(to, str)) or game not in games:
        return None
    if games[game].referee.key_id != verified.signer.key_id:
        return None  # signed by the referee of another game
    if data.get(binding.FIELD) != games[game].hash:
        return None  # another game of the same id
    return data if isinstance(seq, int) and not isinstance(seq, bool) else None


def packets(folder: Path, games: dict[str, Definition]) -> list[tuple[int, Path, dict]]:
    """The authentic packets in a folder: (seq, path, public fields)."""
    found = []
    for path in sorted(folder.iterdir())[:MAX_FILES] if folder.is_dir() else []:
        try:
            if not path.is_file():
                continue
            text = docs.read_capped(path)
        except Refusal:  # too large, or not text: no packet of seki's
            continue
        head = authentic(text, games)
        if head is not None:
            found.append((head["seq"], path, head))
    return found


def newest(folder: Path, identity: Identity, asked_only: bool = True) -> Path:
    """The newest authentic, unanswered packet asking something of `identity` (a Refusal
    if none); with `asked_only` False, the newest authentic packet of its games, asked or
    not (a battle plan may be sent at any time)."""
    games = joined_games(default_dir())
    mine = {g: s for g, d in games.items() if (s := d.side_of(identity.public)) is not None}
    found: list[tuple[int, str, Path]] = []
    for seq, path, head in packets(folder, {g: games[g] for g in mine}):
        side = mine[head["game"]]
        if head["to"] != side:
            continue
        waits = head.get("pending") or []
        asked = isinstance(waits, list) and any(
            isinstance(d, dict) and d.get("side") == side for d in waits
        )
        if not asked_only or (asked and seq not in answered(head["game"])):
            found.append((seq, str(path), path))
    if not found:
        if folder.is_dir():
            text = N_("no unanswered packet for you in {folder}; name one: seki play PACKET")
        else:
            text = N_(
                "no unanswered packet for you in {folder} (not a folder); name one: "
                "seki play PACKET"
            )
        raise Refusal(text, code=Code.NOT_ASKED, folder=folder)
    return max(found)[2]
