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
from ..protocol.packets import PACKET_FORMAT, open_packet
from ..protocol.store import write_atomic
from ..refusal import N_, Code, Refusal

MAX_FILES = 10_000  # files looked at in one folder
MAX_STORY = 40  # packets told since the last turn, the newest ones


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


def shown_before(folder: Path, definition: Definition, identity: Identity, seq: int) -> list:
    """The events of the game's authentic packets in the folder to `identity`'s side
    before packet `seq`, oldest first (one packet a record): what its side was shown
    before it, from which a bot believes where the enemy's blocks are (bot/belief.py). A
    packet that does not open with the key is passed over."""
    side = definition.side_of(identity.public)
    found: dict[int, Path] = {}
    for n, path, head in packets(folder, {definition.game_id: definition}):
        if head.get("to") == side and n < seq:
            found.setdefault(n, path)
    events: list = []
    for n in sorted(found):
        try:
            text = docs.read_capped(found[n])
            events += open_packet(definition, text, identity, found[n].name).events
        except Refusal:  # sealed to another key, or not whole: passed over
            continue
    return events


def _mine(identity: Identity) -> tuple[dict[str, Definition], dict[str, str]]:
    """The games this key directory joined, and the side `identity` plays in each."""
    games = joined_games(default_dir())
    mine = {g: s for g, d in games.items() if (s := d.side_of(identity.public)) is not None}
    return {g: games[g] for g in mine}, mine


def _asks(head: dict, side: str) -> bool:
    waits = head.get("pending") or []
    return isinstance(waits, list) and any(
        isinstance(d, dict) and d.get("side") == side for d in waits
    )


def latest(folder: Path, identity: Identity) -> dict[str, tuple[int, Path, dict]]:
    """For each game of `identity`, its newest authentic packet to it in the folder: the
    only one of the game it may answer (an older packet is superseded by it, issue 30)."""
    games, mine = _mine(identity)
    newest_of: dict[str, tuple[int, Path, dict]] = {}
    for seq, path, head in packets(folder, games):
        game = head["game"]
        if head["to"] == mine[game] and seq > newest_of.get(game, (-1,))[0]:
            newest_of[game] = (seq, path, head)
    return newest_of


def not_started(folder: Path, identity: Identity) -> list[str]:
    """The games `identity` joined with no packet to it in the folder: the joins and seeds
    are still going round, or the first packet has not come."""
    games, _ = _mine(identity)
    return sorted(set(games) - set(latest(folder, identity)))


def newest(folder: Path, identity: Identity, asked_only: bool = True) -> Path:
    """The newest authentic packet asking something of `identity` that it has not answered
    yet (a Refusal if none); only a game's newest packet counts, so a superseded packet
    or a finished game is never offered. With `asked_only` False, the newest authentic
    packet of its games, asked or not (a battle plan may be sent at any time)."""
    _, mine = _mine(identity)
    found = [
        (seq, str(path), path)
        for game, (seq, path, head) in latest(folder, identity).items()
        if not asked_only or (_asks(head, mine[game]) and seq > max(answered(game), default=0))
    ]
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


def check_answerable(path: Path, game_id: str, seq: int, identity: Identity) -> None:
    """A packet named to be answered is one the player may still answer: not answered
    already, not older than one it answered, and not superseded by a newer packet of the
    game beside it. Otherwise a refusal that says why (the referee would refuse the turn
    as stale, or it would answer a decision already taken)."""
    done = answered(game_id)
    if seq in done:
        raise Refusal(
            N_("you have answered packet {seq} already; seki play answers each packet once"),
            code=Code.STALE,
            seq=seq,
        )
    if done and max(done) > seq:
        raise Refusal(
            N_("packet {seq} is older than packet {answered}, which you have answered"),
            code=Code.STALE,
            seq=seq,
            answered=max(done),
        )
    newer = latest(path.parent, identity).get(game_id)
    if newer is not None and newer[0] > seq:
        raise Refusal(
            N_("packet {seq} is superseded by packet {newer} ({path}): answer that one"),
            code=Code.STALE,
            seq=seq,
            newer=newer[0],
            path=newer[1],
        )


def since_answered(folder: Path, identity: Identity, game_id: str, seq: int) -> list[Path]:
    """The authentic packets of a game to `identity` in the folder after the last one it
    answered and before `seq`, oldest first: what happened since its last turn (the last
    MAX_STORY of them, for a player who answered with other tools)."""
    games, mine = _mine(identity)
    if game_id not in games:
        return []
    last = max(answered(game_id), default=0)
    found = [
        (n, path)
        for n, path, head in packets(folder, {game_id: games[game_id]})
        if head["to"] == mine[game_id] and last < n < seq
    ]
    return [path for _, path in sorted(found)][-MAX_STORY:]
