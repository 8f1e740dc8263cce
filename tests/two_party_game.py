"""A two-party game between two bots through the files, played up to the moment a test of
`seki play` in a two-party game needs (a side's Movement Phase, a deployment): its keys,
its sides' directories, the side whose record is due, and a clock a day behind the real
one, so that a record `seki play` writes now follows the game's (twoparty/deadlines.py)."""

from __future__ import annotations

import hashlib
import shutil
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

from two_party_forgery import identity

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import Identity
from sekigahara_pbem.play.two_party import side_view
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol.clock import format_time
from sekigahara_pbem.protocol.component_files import carry, component_set
from sekigahara_pbem.reports.choices import describe_option
from sekigahara_pbem.rules.combat.deploy import legal_deployments
from sekigahara_pbem.rules.components import Components
from sekigahara_pbem.rules.decisions import current
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.vocab import ISHIDA, SIDES
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty.match import player_chooser, take_turns
from sekigahara_pbem.twoparty.side import Side


class PastClock:
    """A record every ten minutes, from a day before the real time."""

    def __init__(self) -> None:
        self.start = datetime.now(UTC).replace(microsecond=0) - timedelta(days=1)
        self.ticks = 0

    def now(self) -> str:
        self.ticks += 1
        return format_time(self.start + timedelta(minutes=10 * self.ticks))


@dataclass
class Game:
    """The game played so far: each test plays the due record on copies of its sides."""

    keys: dict[str, Identity]
    sides: dict[str, Side]
    due: str  # the side whose record is due
    clock: PastClock

    def copy(self, side: str, where: Path) -> Side:
        """Another copy of a side's directory, to play or take in a record there."""
        shutil.copytree(self.sides[side].root, where)
        return Side(where, self.sides[side].game, self.keys[side], self.sides[side].comp)


def play_until(root: Path, wanted: Callable[[Side], bool], tag: str) -> Game:
    """Two heuristic bots' game through the files (in `root`), until the side whose record
    is due is `wanted`."""
    carried = component_set(None)
    comp = carried.components
    keys = {s: identity(s, zlib.crc32(tag.encode())) for s in SIDES}
    publics = {s: k.public for s, k in keys.items()}
    # the same game each run: the sides' secrets derive from the keys and the game's nonce
    nonce = hashlib.sha256(f"{tag}-nonce".encode()).digest()
    with mock.patch.object(files.os, "urandom", lambda n: nonce[:n]):
        text = files.make_game(f"{tag}-2p", carried.hash, {}, publics, keys[ISHIDA])
    definition = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (root / s).mkdir()
        (root / s / "game.txt").write_text(text, encoding="utf-8")
        carry(root / s, carried)
        sides[s] = Side(root / s, definition, keys[s], comp)
    bots = {s: player_chooser(make_player("heuristic", comp, {}, f"{tag}-{s}")) for s in SIDES}
    clock = PastClock()
    due: list[str] = []

    def over(s: str) -> bool:
        if len(sides[s].records()) > 2 and wanted(sides[s]):
            due.append(s)
        return bool(due)

    take_turns(
        lambda s: sides[s].join(clock.now()),
        lambda s: sides[s].turn(bots[s], clock.now()),
        lambda reader, record: sides[reader].receive(record, "mail", clock.now()),
        over,
    )
    return Game(keys, sides, due[0], clock)


def at_movement(side: Side) -> bool:
    """This side's own Movement Phase, its level not chosen yet: a record of several
    actions (the level, stack moves, the end of the phase)."""
    state = side.load().copy()
    phase = state["phase"]
    asked = any(d["side"] == side.side for d in pending(state))
    return asked and phase is not None and phase["level"] is None and state["active"] == side.side


class _Asked(Exception):
    """The first decision the side's next record would ask (a probe, nothing written)."""


def first_asked(side: Side) -> tuple[dict, Components] | None:
    """The copy the side's next record asks its first decision on, and the components
    naming its items (the record built in memory, nothing written); None if it asks
    nothing."""

    def probe(state: dict, kc: Components, s: str) -> dict:
        raise _Asked(state, kc)

    try:
        side.load().write(probe)
    except _Asked as asked:
        return asked.args
    return None


def deploys_first(side: Side) -> bool:
    """The side's next record asks first for a deployment, and it may make one with a
    card (8.5), which the other side may challenge (8.6): a record that stops with the
    battle going on, its action worded with its impact on the battle as it stands. The
    first such deployment (the one the tests choose) reads otherwise on the battle it
    leaves, where the block counts for its own daimyo's +1 (8.3.3): words taken from the
    wrong copy would show."""
    asked = first_asked(side)
    if asked is None or current(asked[0]).name != "deploy":
        return False
    state, kc = asked
    carded = [d for d in legal_deployments(state, kc, side.side) if d.get("card")]
    if not carded:
        return False
    after, _events = apply(state, kc, side.side, carded[0])
    worded = [describe_option(carded[0], kc, side_view(s, kc, side.side), side.side)
              for s in (state, after)]  # fmt: skip
    return worded[0] != worded[1]


def actions(game: files.Game, text: str) -> list[dict]:
    """The actions a record's entries hold, as its author signed them (the public form:
    an item the rules showed by its id)."""
    body = docs.load_yaml(signing.verify(text, game.players.values()).body, "record", plain=True)
    return [e["action"] for e in body["entries"] if e.get("action")]
