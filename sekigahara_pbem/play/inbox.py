"""Which packet to play: the newest one in a folder that asks something of the player in a
game it joined and that it has not answered yet with `seki play`.

Only the packet's public part is read to choose (game, recipient, sequence, what it waits
for); the chosen packet is then opened and checked like any other. Answered packets are
remembered per game in the key directory (`games/<game>.answered.json`).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from ..crypto.keys import Identity
from ..crypto.keystore import default_dir
from ..crypto.signing import SignatureError, split
from ..pbem.documents import MAX_BYTES
from ..pbem.store import write_atomic
from ..refusal import N_, NOT_ASKED, Refusal

PACKET_FORMAT = "seki-packet/1"
MAX_FILES = 10_000  # files looked at in one folder


def _answered_path(game_id: str) -> Path:
    return default_dir() / "games" / f"{game_id}.answered.json"


def answered(game_id: str) -> set[int]:
    """The packets of a game this player has answered with seki play."""
    try:
        return set(json.loads(_answered_path(game_id).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return set()


def remember(game_id: str, seq: int) -> None:
    done = answered(game_id) | {seq}
    write_atomic(_answered_path(game_id), json.dumps(sorted(done)))


def newest(folder: Path, identity: Identity, asked_only: bool = True) -> Path:
    """The newest unanswered packet asking something of `identity` (a Refusal if none);
    with `asked_only` False, the newest packet of its games, asked or not (a battle plan
    may be sent at any time)."""
    from ..pbem.game import parse

    games = default_dir() / "games"
    mine: dict[str, str] = {}  # game -> the side this identity plays there
    for path in sorted(games.glob("*.txt")) if games.is_dir() else []:
        try:
            definition = parse(path.read_text(encoding="utf-8"), str(path))
        except (OSError, ValueError):
            continue
        side = definition.side_of(identity.public)
        if side is not None:
            mine[definition.game_id] = side
    found: list[tuple[int, str, Path]] = []
    for path in sorted(folder.iterdir())[:MAX_FILES] if folder.is_dir() else []:
        head = _public_part(path)
        if head is None:
            continue
        game, seq = head.get("game"), head.get("seq")
        side = mine.get(game) if isinstance(game, str) else None
        if side is None or head.get("to") != side or not isinstance(seq, int):
            continue
        waits = head.get("pending") or []
        asked = any(isinstance(d, dict) and d.get("side") == side for d in waits)
        if not asked_only or (asked and seq not in answered(game)):
            found.append((seq, str(path), path))
    if not found:
        if folder.is_dir():
            text = N_("no unanswered packet for you in {folder}; name one: seki play PACKET")
        else:
            text = N_(
                "no unanswered packet for you in {folder} (not a folder); name one: "
                "seki play PACKET"
            )
        raise Refusal(text, NOT_ASKED, None, None, folder=folder)
    return max(found)[2]


def _public_part(path: Path) -> dict | None:
    """A packet file's public fields, or None for any other file."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return public_part(text)


def public_part(text: str) -> dict | None:
    """A packet's public fields (game, seq, to, pending), unchecked, or None for any other
    document; the packet is opened and checked only once chosen."""
    if PACKET_FORMAT not in text[:400]:
        return None
    try:
        body, _ = split(text)
        data = yaml.safe_load(body)
    except (ValueError, SignatureError, yaml.YAMLError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != PACKET_FORMAT:
        return None
    fields = (data.get("game"), data.get("to"), data.get("seq"))
    if not (isinstance(fields[0], str) and isinstance(fields[1], str)):
        return None
    return data if isinstance(fields[2], int) and not isinstance(fields[2], bool) else None
