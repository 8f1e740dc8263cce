"""What a side knows, read from its own view: its blocks and hand exactly, the enemy as
counts per location, or as the blocks believed there (bot/belief.py: a belief built from
the events the side saw). Every estimate the heuristic player makes starts here, so it
can never use more than its packets told it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from ..rules.components import Components
from ..rules.decisions.challenge import unseen_challenge
from ..rules.vocab import ISHIDA, LAST_WEEK, other
from .belief import Members
from .weights import WEIGHTS

LEADER_WORTH = WEIGHTS["knowledge.LEADER_WORTH"]  # a leader's worth beyond its mon (8.2.4)
SPARE = WEIGHTS["knowledge.SPARE"]  # a block's share of its mon where no card deploys it


_TABLES: list[tuple[Components, bool, dict]] = []  # (component set, highways alone, distances)


def distances(comp: Components) -> dict[str, dict[str, int]]:
    """Road distance between every two locations (breadth-first from each), computed once
    per component set."""
    return _table(comp, False)


def highway_distances(comp: Components) -> dict[str, dict[str, int]]:
    """The same along highways alone (7.3.3: a move all on highways goes one further)."""
    return _table(comp, True)


def _table(comp: Components, highways: bool) -> dict[str, dict[str, int]]:
    for known, kind, table in _TABLES:
        if known is comp and kind == highways:
            return table
    out: dict[str, dict[str, int]] = {}
    for start in comp.locations:
        seen = {start: 0}
        todo = deque([start])
        while todo:
            loc = todo.popleft()
            for nxt in comp.adjacent[loc]:
                if nxt not in seen and (not highways or comp.road(loc, nxt)):
                    seen[nxt] = seen[loc] + 1
                    todo.append(nxt)
        out[start] = seen
    _TABLES.append((comp, highways, out))
    return out


@dataclass
class Knowledge:
    """The map as one side sees it, with the estimates the scoring functions share."""

    comp: Components
    view: dict
    side: str
    # bot/belief.py: place -> {enemy block: chance it is there}; None: counts alone
    members: Members | None = None
    # bot/recall.py: the enemy's discard pile recalled; None: not known
    enemy_discard: frozenset[str] | None = None

    def __post_init__(self) -> None:
        own = self.view["own"]
        self.enemy = other(self.side)
        self.hand: list[str] = list(own["hand"])
        self.blocks: dict[str, list[str]] = {loc: list(b) for loc, b in own["blocks"].items()}
        self.enemy_at = {
            loc: c[self.enemy] for loc, c in self.view["stacks"].items() if c.get(self.enemy)
        }
        self.protagonist = self.comp.protagonist(self.side)
        self.dist = distances(self.comp)
        self.highway = highway_distances(self.comp)
        self.enemy_mon = self._enemy_mon()
        self.enemy_hand: int = self.view["hands"][self.enemy]
        self._threats: dict[str, float] = {}  # threat() and matches() are asked thousands
        self._matches: dict[str, bool] = {}  # of times a decision: kept once computed
        self.memo: dict[tuple, Any] = {}  # the same for the scoring functions' estimates
        v = self.view
        # The week's last movement phase is ours: no enemy block moves before control next
        # counts (6.2). In the game's last, nothing the enemy does can follow it but the
        # combats we start, so only the points at the end count (2.2).
        self.last_of_week = (
            v["turn"] == "B" and v["active"] == self.side and v["first"] == self.enemy
        )
        self.last_move = v["week"] == LAST_WEEK and self.last_of_week

    def _enemy_mon(self) -> float:
        """Average strength of an enemy block we cannot see: the mean mon of its blocks that
        are neither eliminated nor face up in the Mōri Box."""
        shown = set(self.view["eliminated"]) | set(self.view["mori_box"])
        mons = [
            b.mon for b in self.comp.blocks.values() if b.side == self.enemy and b.id not in shown
        ]
        return sum(mons) / len(mons) if mons else 2.0

    def worth(self, block: str) -> float:
        """How much a block is worth keeping: its mon, more for a leader, everything for the
        protagonist (losing it loses the game, 2.1)."""
        spec = self.comp.blocks[block]
        if block == self.protagonist:
            return 1000.0
        return spec.mon + (LEADER_WORTH if spec.leader else 0.0) + (0.5 if spec.ability else 0.0)

    def matches(self, block: str) -> bool:
        """Whether a card in hand could deploy this block in battle (8.2.2), or it is a
        leader that may deploy without one (8.2.4)."""
        known = self._matches.get(block)
        if known is None:
            known = self._matches[block] = self._card_for(block)
        return known

    def _card_for(self, block: str) -> bool:
        spec = self.comp.blocks[block]
        if spec.leader and block != self.protagonist:
            return True
        for c in self.hand:
            card = self.comp.cards[c]
            if card.kind != "loyalty" and (spec.any_card or card.clan == spec.clan):
                return True
        return False

    def strength(self, blocks: list[str]) -> float:
        """Expected impact of our blocks in a battle (8.2.2: each card deploys one block):
        leaders in full (8.2.4: they deploy without one), then the strongest blocks a card
        in hand can deploy, one per card, in full; the rest at SPARE (a card drawn later,
        a loss they absorb). The protagonist is never counted: it is never risked."""
        key = ("strength", *blocks)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._strength(blocks)
        return known

    def _strength(self, blocks: list[str]) -> float:
        spec = self.comp.blocks
        free = unmatched = 0.0
        carded: list[float] = []
        for b in blocks:
            if b == self.protagonist:
                continue
            if spec[b].leader:
                free += spec[b].mon
            elif self.matches(b):
                carded.append(spec[b].mon)
            else:
                unmatched += spec[b].mon
        carded.sort(reverse=True)
        cards = len(self.hand)
        return free + sum(carded[:cards]) + SPARE * (sum(carded[cards:]) + unmatched)

    def enemy_may_challenge(self) -> bool:
        """Whether the enemy may hold a Loyalty Challenge (8.6.1): one of its deck's not
        recalled in its discard pile nor played in the combat under way (every play and
        discard is shown, 3.3), and none from an empty hand; without a memory of its
        pile, as far as we know, yes."""
        if self.enemy_hand == 0:
            return False
        if self.enemy_discard is None:
            return True
        fight = (self.view.get("combat") or {}).get("fight") or {}
        seen = self.enemy_discard | set(fight.get("played", {}).get(self.enemy, []))
        return unseen_challenge(self.comp, self.enemy, seen)

    def enemy_strength(self, loc: str) -> float:
        """Expected impact of the enemy blocks at a location: its average mon for as many
        blocks as its hand has cards to deploy (8.2.2) and one more (a leader, 8.2.4), the
        rest at SPARE; with a belief over its blocks (`members`), the blocks it believes
        there instead of the average (`_believed_impact`)."""
        n = self.enemy_at.get(loc, 0)
        if self.members is None or not n:
            return self._enemy_impact(n)
        known = self.memo.get(("enemy", loc))
        if known is None:
            known = self.memo[("enemy", loc)] = self._believed_impact(self.members.get(loc, {}))
        return known

    def _enemy_impact(self, n: int) -> float:
        deployed = min(n, self.enemy_hand + 1)
        return (deployed + SPARE * (n - deployed)) * self.enemy_mon

    def _believed_impact(self, members: dict[str, float]) -> float:
        """As our own `strength`, of the blocks believed at a place, each at its chance
        of being there: leaders in full (8.2.4), then the strongest, one a card of the
        enemy's hand, in full, the rest at SPARE."""
        spec = self.comp.blocks
        free = 0.0
        rest: list[tuple[int, float]] = []
        for b, p in members.items():
            if spec[b].leader:
                free += p * spec[b].mon
            else:
                rest.append((spec[b].mon, p))
        rest.sort(reverse=True)
        cards, total = float(self.enemy_hand), free
        for mon, p in rest:
            full = min(p, cards)
            cards -= full
            total += mon * (full + SPARE * (p - full))
        return total

    def threat(self, loc: str) -> float:
        """Enemy strength that could strike a location next: stacks there or one road away
        in full, two roads away at half (leadership, highways and force marches); none
        after the last movement phase."""
        if self.last_move:
            return 0.0
        known = self._threats.get(loc)
        if known is not None:
            return known
        total = 0.0
        for eloc in self.enemy_at:
            d = self.dist[loc].get(eloc, 99)
            if d <= 1:
                total += self.enemy_strength(eloc)
            elif d == 2:
                total += self.enemy_strength(eloc) / 2
        self._threats[loc] = total
        return total

    def castle_points(self, loc: str, controller: str | None) -> float:
        """Victory points a castle's controller gives us, minus what it gives the enemy (2.2)."""
        if self.comp.locations[loc].castle is None or controller is None:
            return 0.0
        return 2.0 if controller == self.side else -2.0

    def resource_gain(self, loc: str) -> float:
        """Point swing from claiming a Resource Location (4.2): +1, or +2 if the enemy had it."""
        if not self.comp.locations[loc].resource:
            return 0.0
        owner = self.view["control"].get(loc)
        return 0.0 if owner == self.side else (2.0 if owner == self.enemy else 1.0)

    def guard_needed(self, loc: str) -> float:
        """Strength we want to keep at a location: around the protagonist enough to face the
        threat with room to spare, and for Ishida a garrison at Hideyori's Osaka (9.1)."""
        known = self.memo.get(("guard", loc))
        if known is None:
            known = self.memo[("guard", loc)] = self._guard_needed(loc)
        return known

    def _guard_needed(self, loc: str) -> float:
        need = 0.0
        if self.protagonist in self.blocks.get(loc, []):
            need = max(4.0, 1.5 * self.threat(loc))
        disks = self.view["stacks"].get(loc, {}).get("disks", [])
        if self.side == ISHIDA and any(self.comp.disks[d].instant_loss for d in disks):
            need = max(need, 5.0, 1.2 * self.threat(loc))
        return need
