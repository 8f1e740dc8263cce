"""The heuristic player: one decision at a time, the highest-scoring legal option.

It sees what its packet shows and nothing more: its view and the options listed there. To
answer a whole movement phase in one turn file it plays on from its shadow state
(rules/shadow.py), the full state consistent with that view, and stops as soon as the
shadow could part from the real game: a random draw, an overrun (it may reveal a
protagonist), a combat's result, or anything the enemy decided.
"""

from __future__ import annotations

import hashlib
import json

from ..rules import rng
from ..rules.components import Components
from ..rules.engine import apply
from ..rules.options import options
from ..rules.state import DEFAULT_OPTIONS, fight_of
from ..rules.state_types import State
from ..rules.vocab import LEVELS, Malformed, RuleViolation
from . import cards, fights, moves
from .belief import Belief, Members
from .chain import turn_file
from .groups import partial_moves
from .knowledge import Knowledge
from .plan import battle_plan
from .recall import Recall
from .weights import WEIGHTS

THRESHOLD = WEIGHTS["heuristic.THRESHOLD"]  # a move must be worth more than ending
PARTIAL = 3  # partial stack moves (groups.py) checked and offered to the choice
MOVEMENT = ("mori", "level", "move", "muster", "end_movement")
SCORES = {
    "discard": cards.score_discard,
    "bid": cards.score_bid,
    "choose_first": cards.score_first,
    "declare": fights.score_declare,
    "castle": fights.score_castle,
    "challenge": fights.score_challenge,
    "decline": fights.score_challenge,
    "losses": fights.score_losses,
    "retreat": fights.score_retreat,
}


class HeuristicPlayer:
    """Chooses by the scoring functions of cards.py, moves.py and fights.py; ties are
    broken by a generator seeded from the seed and the view, so the same packet always
    gets the same answer. With `plans` it also files its battle plan (plan.py) at the
    start of each of its movement phases, so that most combat decisions need no mail.
    Without `partial` it weighs only the moves the listing offers (whole stacks, single
    blocks) and never part of a stack (groups.py): the easy level, a player who lets
    its army sit."""

    def __init__(
        self,
        comp: Components,
        game_options: dict,
        seed: str = "heuristic",
        plans: bool = False,
        partial: bool = True,
    ):
        self.comp = comp
        self.game_options = {**DEFAULT_OPTIONS, **game_options}
        self.seed = seed
        self.plans = plans
        self.partial = partial
        self.seen: list[dict] | None = None  # events shown before the side was known
        self.belief: Belief | None = None  # bot/belief.py, once it has been shown events
        self.members: Members | None = None  # the belief fitted to a view
        self.recall: Recall | None = None  # bot/recall.py, beside the belief
        self.enemy_discard: frozenset[str] | None = None  # recalled, as a view counts it

    def observe(self, events: list[dict]) -> None:
        """Events as this side saw them (the setup's, then each action's, in order): the
        belief over the enemy's hidden blocks is moved by them (bot/belief.py), and the
        enemy's cards remembered (bot/recall.py). A player never shown any judges the
        enemy by the counts of its view alone."""
        if self.belief is not None and self.recall is not None:
            self.belief.observe(events)
            self.recall.observe(events)
            return
        if self.seen is None:
            self.seen = []
        self.seen.extend(events)

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        """The actions of one turn file answering the decision `v` asks for."""
        if not offered:
            return []
        self.fit(v)
        plan: list[dict] = []
        if self.plans and (v["own"].get("plan") is None or _phase_starts(v)):
            plan.append({"type": "plan", "plan": battle_plan(self._knowledge(v))})
        return turn_file(self.comp, self.game_options, v, offered, self.choose, plan)

    def fit(self, v: dict) -> None:
        """The belief fitted to the view a turn file starts from: nothing the enemy does
        can change its blocks' places before the file ends (bot/chain.py)."""
        if self.belief is None and self.seen is not None:
            self.belief = Belief(self.comp, v["own"]["side"])
            self.belief.observe(self.seen)
            self.recall = Recall(self.comp, v["own"]["side"])
            self.recall.observe(self.seen)
            self.seen = None
        if self.belief is not None and self.recall is not None:
            self.members = self.belief.fit(v)
            self.enemy_discard = self.recall.discard(v)

    def _knowledge(self, v: dict) -> Knowledge:
        return Knowledge(self.comp, v, v["own"]["side"], self.members, self.enemy_discard)

    def choose(self, v: dict, offered: list[dict], shadow: State) -> dict:
        """The best of the options offered for the decision in `v`."""
        return self._pick(self._knowledge(v), offered, shadow)

    def ranked(self, v: dict, offered: list[dict], shadow: State, width: int) -> list[dict]:
        """Up to `width` options worth a closer look (the search player's candidates,
        bot/search.py): this player's own choice first, then the others by their score;
        none that gives up more Loyalty Challenges than our choice does. The search's
        rollouts end within two movement phases, long before the battle a Loyalty
        Challenge is kept for (8.6), and counted every card alike: hard threw away 1.4 a
        game, normal 0.8 (issue 39)."""
        k = self._knowledge(v)
        out = [self._pick(k, offered, shadow)]
        spent = cards.loyalty_spent(k, out[0])
        for _, a in sorted(self._scored(k, offered, shadow), key=lambda sa: -sa[0]):
            if len(out) >= width:
                break
            if a not in out and cards.loyalty_spent(k, a) <= spent:
                out.append(a)
        return out

    def _pick(self, k: Knowledge, offered: list[dict], shadow: State) -> dict:
        kind = offered[0]["type"]
        if kind in ("deploy", "finish"):
            return self._deploy(k, offered, shadow)
        scored = self._scored(k, offered, shadow)
        if kind in MOVEMENT and k.view["phase"]["level"] is None:
            mori = [(s, a) for s, a in scored if a["type"] == "mori"]
            if mori and max(s for s, _ in mori) > 0:
                return self._best(k.view, mori)
            scored = [(s, a) for s, a in scored if a["type"] == "level"]
        return self._best(k.view, scored)

    def _scored(self, k: Knowledge, offered: list[dict], shadow: State) -> list[tuple[float, dict]]:
        """Every option this player can score, with its score (an estimate in points)."""
        kind = offered[0]["type"]
        if kind in ("deploy", "finish"):
            scored = []
            for a in offered:
                gain = None if a["type"] == "finish" else _impact_gain(self.comp, shadow, k.side, a)
                if gain is not None:
                    scored.append((fights.score_deploy(k, a, gain), a))
                elif a["type"] == "finish":
                    scored.append((0.0, a))
            return scored
        if kind in MOVEMENT:
            if k.view["phase"]["level"] is None and ("planned",) not in k.memo:
                k.memo[("planned",)] = self._planned(k, shadow, offered)  # what levels buy
            scored = [(self._movement_score(k, a), a) for a in offered]
            if self.partial and k.view["phase"]["level"] is not None:
                scored += self._partial(k, shadow, offered)
            return scored
        return [(SCORES[kind](k, a), a) for a in offered]

    def _partial(self, k: Knowledge, shadow: State, offered: list[dict]) -> list[tuple]:
        """The parts of stacks worth moving (groups.py), each checked on the shadow: one
        the engine would refuse is never proposed. Kept in `k.memo`: `ranked` scores the
        options twice (its pick, then the others), and the checks apply moves."""
        known = k.memo.get(("partial",))
        if known is None:
            known = k.memo[("partial",)] = self._checked_partial(k, shadow, offered)
        return known

    def _checked_partial(self, k: Knowledge, shadow: State, offered: list[dict]) -> list[tuple]:
        scored = [(moves.score_move(k, a), a) for a in partial_moves(k, offered)]
        best = max((s for s, _ in scored), default=0.0)
        out: list[tuple[float, dict]] = []
        for s, a in sorted(scored, key=lambda sa: -sa[0]):
            if s < best - 1.0 or len(out) >= PARTIAL:
                break
            try:
                apply(shadow, self.comp, k.side, a)
            except (RuleViolation, Malformed):
                continue
            out.append((s, a))
        return out

    def _movement_score(self, k: Knowledge, a: dict) -> float:
        kind = a["type"]
        if kind == "move":
            return moves.score_move(k, a)
        if kind == "muster":
            return moves.score_muster(k, a)
        if kind == "mori":
            return moves.score_mori(k, a)
        if kind == "level":
            return cards.score_level(k, a, k.memo.get(("planned",), 0))
        return THRESHOLD

    def _planned(self, k: Knowledge, shadow: State, offered: list[dict]) -> int:
        """How many stacks (and a muster, 7.2) have a move worth making, counted up to
        one more than limited movement buys (7.1: that is all a level needs to know), as
        listed once the free level is chosen: the moves on offer are the same whatever is
        paid, only their number differs."""
        free = next((a for a in offered if a["type"] == "level" and a["level"] == "minimal"), None)
        if free is None:
            return 0
        try:
            after, _ = apply(shadow, self.comp, k.side, free)
        except (RuleViolation, Malformed):
            return 0
        listed = options(after, self.comp, k.side)
        worth: set[str] = set()
        enough = (LEVELS["limited"][1] or 0) + 1
        for a in [*listed, *(partial_moves(k, listed) if self.partial else [])]:
            key = a["from"] if a["type"] == "move" else a["type"]
            if key in worth or a["type"] not in ("move", "muster"):
                continue
            score = moves.score_move(k, a) if a["type"] == "move" else moves.score_muster(k, a)
            if score > THRESHOLD:
                worth.add(key)
                if len(worth) >= enough:
                    break
        return len(worth)

    def _deploy(self, k: Knowledge, offered: list[dict], shadow: State) -> dict:
        finish = next((a for a in offered if a["type"] == "finish"), None)
        scored = []
        for a in offered:
            if a["type"] == "deploy":
                gain = _impact_gain(self.comp, shadow, k.side, a)
                if gain is not None:
                    scored.append((fights.score_deploy(k, a, gain), a, gain))
        if scored:
            best = max(s for s, _, _ in scored)
            top = [(s, a) for s, a, _ in scored if s == best]
            action = self._best(k.view, top)
            gain = next(g for s, a, g in scored if a is action)
            if finish is None or fights.worth_deploying(k, best, gain):
                return action
        return finish or offered[0]

    def _best(self, v: dict, scored: list[tuple[float, dict]]) -> dict:
        """The highest score; among equals, one picked by the seeded generator."""
        top = max(s for s, _ in scored)
        ties = [a for s, a in scored if s >= top - 1e-9]
        if len(ties) == 1:
            return ties[0]
        text = json.dumps([self.seed, v["own"]["side"], v["week"], v["turn"], v["step"], ties])
        chooser = rng.new(hashlib.sha256(text.encode()).hexdigest())
        return ties[rng.below(chooser, len(ties))]


def _impact_gain(comp: Components, shadow: State, side: str, action: dict) -> int | None:
    """The impact a deployment adds, as the engine counts it (8.3, 8.4)."""
    before = fight_of(shadow)["impact"][side]
    try:
        _, events = apply(shadow, comp, side, action)
    except (RuleViolation, Malformed):
        return None
    totals = [e["impact"][side] for e in events if e["type"] == "deploy" and e["side"] == side]
    return totals[0] - before if totals else None


def _phase_starts(v: dict) -> bool:
    return v["step"] == "movement" and v["phase"] is not None and v["phase"]["level"] is None
