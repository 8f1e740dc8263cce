"""`seki demo`: three parties, one game, played to the end through the real files, then
revealed and verified.

Two built-in bot players read only their own packets (verified and decrypted with their
own keys), decide from the view and the legal options listed there (sekigahara_pbem/bot:
the heuristic player, the search player, or the random baseline), and answer with a
signed turn file that the referee adjudicates: the same path a human's mail takes. With
`plans`, each bot also files a battle plan, so its combats are fought by plan: the
heuristic its own (bot/plan.py), the random bot STANDING_ORDERS with its first answer of
every week.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..bot import BUDGET, RandomPlayer, SearchPlayer, make_player
from ..crypto import signing
from ..crypto.keys import Identity, generate
from ..crypto.keystore import write_identity
from ..protocol import chain, joins, packets, turns
from ..protocol import documents as docs
from ..protocol import game as games
from ..protocol.component_files import component_set, components_hash
from ..protocol.store import GameDir
from ..refusal import Refusal
from ..rules import rng
from ..rules.vocab import SIDES
from . import adjudication as referee
from . import verify as checks

GAME_ID = "demo"


@dataclass
class DemoResult:
    game_dir: Path
    records: int = 0
    turn_files: int = 0
    refused: list[str] = field(default_factory=list)
    result: dict | None = None


# A battle plan that answers every combat decision: deploy the most impact while losing,
# then finish; challenge whenever a Loyalty Challenge is in hand; take losses and retreat
# where the engine's order says; hold a castle inside (docs/protocol.md, "Battle plans").
STANDING_ORDERS = {
    "declare": ["any"],
    "castle": "inside",
    "deploy": [{"block": "any", "card": "any", "when": "losing"}],
    "stop": "finish",
    "challenge": "always",
    "losses": ["any"],
    "retreat": ["any"],
}


class Bot:
    """A player that knows only what its packets tell it: random (the default),
    heuristic or search (`kind`, see sekigahara_pbem/bot; `budget` is the search
    player's seconds per decision). It plays with the component set in `components`
    (default: the packaged set), which its turn files name."""

    def __init__(
        self,
        identity: Identity,
        definition: games.Definition,
        seed: str,
        plans: bool = False,
        kind: str = "random",
        budget: float = BUDGET,
        components: Path | None = None,
    ):
        self.identity = identity
        self.definition = definition
        self.components = component_set(components)
        self.plans = plans and kind == "random"  # the heuristic player files its own
        self.filed_week = 0  # the last week whose first answer carried the plan
        self.side = definition.side_of(identity.public)  # None: not a player of the game
        self.seen = 0  # the last packet whose events the player was shown
        self.chooser = rng.new(hashlib.sha256(f"{seed}:{identity.name}".encode()).hexdigest())
        self.player = (
            RandomPlayer(self.chooser)
            if kind == "random"
            else make_player(
                kind, self.components.components, definition.options,
                f"{seed}:{identity.name}", plans, budget,
            )
        )  # fmt: skip

    def close(self) -> None:
        """End what the player keeps running: a search player's second process."""
        if isinstance(self.player, SearchPlayer):
            self.player.close()

    def catch_up(self, gd: GameDir, seq: int) -> None:
        """Show the player the events of the side's packets before `seq` it has not been
        shown (a heuristic or search player's belief over the enemy's blocks is moved by
        them, bot/belief.py); a player that keeps no belief opens none of them, and one
        that does goes on without a packet that does not open."""
        if self.side is None or not hasattr(self.player, "observe"):
            return
        for n in range(self.seen + 1, seq):
            path = gd.packet(n, self.side)
            try:
                text = docs.read_capped(path)
                self._shown(packets.open_packet(self.definition, text, self.identity, str(path)))
            except Refusal:  # missing or not whole: the belief goes without it (a guess)
                continue

    def _shown(self, packet: packets.Packet) -> None:
        observe = getattr(self.player, "observe", None)
        if observe is not None and packet.seq > self.seen:
            observe(packet.events)
            self.seen = packet.seq

    def answer(self, packet_text: str, where: str) -> str | None:
        """A signed turn file answering the packet, or None if nothing is asked of it."""
        packet = packets.open_packet(self.definition, packet_text, self.identity, where)
        self._shown(packet)
        if not packet.options:
            return None
        actions = self.player.actions(packet.view, packet.options)
        if self.plans and packet.view["week"] != self.filed_week:
            actions.insert(0, {"type": "plan", "plan": STANDING_ORDERS})
            self.filed_week = packet.view["week"]
        body = turns.body(self.definition, packet.side, packet.seq, actions, self.components.hash)
        return self.sealed(body)

    def sealed(self, body: str) -> str:
        """The turn file signed and sealed to the referee, as a player's tool sends it."""
        return turns.seal(self.definition, signing.sign(body, self.identity), self.identity)


class Bots(NamedTuple):
    """The demo's two players: their kind (random, heuristic or search, which thinks
    `budget` seconds a decision), and whether they fight their combats by battle plan."""

    kind: str = "random"
    plans: bool = False
    budget: float = BUDGET


def run_demo(
    root: Path,
    seed: str,
    now: str,
    max_steps: int = 5000,
    bots: Bots = Bots(),  # noqa: B008 - a tuple: one shared default is safe
    components: Path | None = None,
    until: Callable[[dict], bool] | None = None,
) -> DemoResult:
    """Create keys and a game under `root`, play it to the end between two `bots`, return
    what happened. The game is played with the component set in `components` (default:
    the packaged set). `until` stops it early, at the first record whose pending decision
    it holds true of (a benchmark stops where the decision it measures is asked)."""
    keys = root / "keys"
    people = {name: generate(name) for name in ("referee", *SIDES)}
    for identity in people.values():
        write_identity(keys, identity)
    gd = GameDir(root / "game")
    definition = games.create(
        gd.root,
        GAME_ID,
        people["referee"],
        {s: people[s].public for s in SIDES},
        components_hash(components),
        {},
        now,
        games.Terms(component_dir=components),
    )
    result = DemoResult(gd.root)
    for name, text in joins.opening(definition, people):
        _adjudicate(gd, people["referee"], name, text, now, result)
    players = {
        s: Bot(people[s], definition, seed, bots.plans, bots.kind, bots.budget, components)
        for s in SIDES
    }
    for _ in range(max_steps):
        seq = gd.last_seq()
        record = chain.read_record(gd, definition, seq)
        waiting = sorted({d["side"] for d in record.body["pending"]})
        if not waiting or (until and any(map(until, record.body["pending"]))):
            break
        side = waiting[0]
        path = gd.packet(seq, side)
        players[side].catch_up(gd, seq)
        turn = players[side].answer(path.read_text(encoding="utf-8"), str(path))
        if turn is None:
            raise RuntimeError(f"{side} was asked to decide at record {seq} but has no option")
        _adjudicate(gd, people["referee"], f"turn-{seq}-{side}.txt", turn, now, result)
        result.turn_files += 1
    result.records = gd.last_seq()
    final = chain.read_record(gd, definition, result.records)
    if not final.body["pending"]:  # over: reveal and verify
        checks.reveal(gd.root, people["referee"], now)
        result.result = checks.verify(gd.root).result
    return result


def _adjudicate(
    gd: GameDir, ref: Identity, name: str, text: str, now: str, result: DemoResult
) -> None:
    for outcome in referee.adjudicate(gd.root, ref, [(name, text.encode("utf-8"))], now):
        if not outcome.accepted:
            result.refused.append(outcome.message)
