"""Blunder counters (issue 39): the mistakes a wargamer saw the computer make, counted per
side over a game from every action the engine applied (bot/match.py's `on_action`).

- immobile: blocks at the start of their side's movement phase in a stack that could not
  move as a whole even with a highway, leadership and a force march (7.3.3-7.3.6);
- idle: blocks (each counted once a game) on the map in the same place, unmoved, at the
  starts of the side's movement phases two weeks apart, with an enemy stack within two
  roads at the later one (besieged blocks, which cannot leave, 8.9.6, are not counted);
- idle army: those of them that are neither the protagonist (2.1: never risked) nor one
  of the two strongest blocks in a castle their side holds (its garrison: two blocks fit
  inside, 8.9.1, and a castle left empty reverts to its colour, 4.3): the issue's
  definition counts a garrison that holds its castle as idle, this one does not;
- lone losses: blocks eliminated while they were their side's only block at the place;
- lone for nothing: those of them lost for no point gained, the issue's count: the block's
  last move in the week it fell claimed no Resource Location (4.2) that its side still
  held when control next counted, at the next reinforcement step (6.2: the extra block)
  or the game's end (2.2: a point each). A raid that flips a resource and holds it past
  that count traded the block for something; one flipped back first, or a block that
  stood still and fell, did not;
- paid unused: cards paid for a movement level (7.1) beyond what the moves made needed
  (one move is free, three cost one card, more cost two);
- LC wasted: Loyalty Challenges (8.6) spent on movement, Mōri blocks, bids (but the last
  week's, which buys the game's last move) or redraws, or discarded at the hand limit
  while another card could have gone instead;
- LC played: Loyalty Challenges played in battle (the use they are kept for).
Also the blocks each side lost in all. Pure bookkeeping: it never changes a game.

Usage: python bench/blunders.py [GAMES] [--quick]   (default 20; --quick: CI's run, one
game): this release's heuristic against the frozen baseline's (bench/baseline_v1), sides
alternated, and both players' counters a game. bench/bot_strength.py --baseline prints
the same table for any pairing.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter, defaultdict

from baseline_v1 import HeuristicPlayer as FrozenHeuristic

from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.knowledge import distances
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.components import Components
from sekigahara_pbem.rules.movement.movement import capacity, leadership
from sekigahara_pbem.rules.vocab import ELIMINATED, LAST_WEEK, LEVELS, SIDES, RuleViolation

KINDS = (
    "immobile", "idle", "idle army", "lone losses", "lone for nothing", "lost", "paid unused",
    "LC wasted", "LC played",
)  # fmt: skip
LONG_WAY = 2  # roads: an enemy stack this close makes idling a blunder
GARRISON = 2  # blocks inside a castle (8.9.1): its garrison, never an idle army


class Tally:
    """The counters of one game, per side (`counts[side][kind]`)."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.counts: dict[str, Counter] = {s: Counter() for s in SIDES}
        self.phase_starts: dict[tuple, dict[str, str]] = {}  # (side, week, turn) -> places
        self.moved: dict[str, set[tuple]] = defaultdict(set)  # block -> phases it moved in
        self.paid: dict[tuple, int] = {}  # phase -> cards paid for its level
        self.made: Counter = Counter()  # phase -> moves and musters made
        self.idle: dict[str, set[str]] = {s: set() for s in SIDES}
        self.idle_army: dict[str, set[str]] = {s: set() for s in SIDES}
        self.claims: dict[str, set[str]] = {}  # block -> resources its moves this week took
        self.fallen: list[tuple[str, set[str]]] = []  # lone losses: side, the claims
        self.last: dict | None = None  # the state after the last action

    def action(self, before: dict, side: str, action: dict, after: dict) -> None:
        """Count what one applied action shows (match.play's `on_action`)."""
        kind = action["type"]
        phase = (side, before["week"], before["turn"])
        if kind in ("level", "mori") and before["phase"]["level"] is None:
            self._phase_start(before, side, phase)
        if kind == "level":
            self.paid[phase] = LEVELS[action["level"]][0]
        if kind in ("move", "muster"):
            self.made[phase] += 1
            for g in action.get("groups", ()):
                for b in g["blocks"]:
                    self.moved[b].add(phase)
                self._claimed(before, side, g, after)
        if kind == "challenge":
            self.counts[side]["LC played"] += 1
        self.counts[side]["LC wasted"] += self._wasted_loyalty(before, side, action)
        self._losses(before, after)
        if after["week"] != before["week"]:
            self._counted(before["control"])  # as the reinforcement step counted it (6.2)
            self.claims = {}
        self.last = after

    def finish(self) -> dict[str, Counter]:
        """The counts of the game, once it is over."""
        if self.last is not None:
            self._counted(self.last["control"])  # 2.2: the points at the game's end
        for phase, paid in self.paid.items():
            moves = self.made[phase]
            needed = 0 if moves <= 1 else 1 if moves <= 3 else 2
            self.counts[phase[0]]["paid unused"] += max(0, paid - needed)
        for side in SIDES:
            self.counts[side]["idle"] = len(self.idle[side])
            self.counts[side]["idle army"] = len(self.idle_army[side])
        return self.counts

    def _phase_start(self, state: dict, side: str, phase: tuple) -> None:
        places = {
            b: loc
            for b, loc in state["blocks"].items()
            if self.comp.blocks[b].side == side and loc in self.comp.locations
        }
        self.phase_starts[phase] = places
        stacks: dict[str, list[str]] = defaultdict(list)
        for b, loc in places.items():
            stacks[loc].append(b)
        for loc, blocks in stacks.items():
            if state["besieged"].get(loc) == side:
                continue
            if not self._can_move(state, side, loc, blocks):
                self.counts[side]["immobile"] += len(blocks)
        earlier = self.phase_starts.get((side, state["week"] - 2, state["turn"]))
        if earlier is None:
            return
        enemy_at = {
            loc
            for b, loc in state["blocks"].items()
            if self.comp.blocks[b].side != side and loc in self.comp.locations
        }
        for b, loc in places.items():
            if earlier.get(b) != loc or state["besieged"].get(loc) == side:
                continue
            if any(p[1] >= state["week"] - 2 for p in self.moved[b] if p[0] == side):
                continue
            if any(self._roads(loc, e) <= LONG_WAY for e in enemy_at):
                self.idle[side].add(b)
                if b not in self._garrison(state, side, loc, stacks[loc]):
                    self.idle_army[side].add(b)

    def _garrison(self, state: dict, side: str, loc: str, blocks: list[str]) -> list[str]:
        """The blocks of a stack that hold it and are never an idle army: the protagonist,
        and in a castle its side holds the two strongest others (no siege there: a side
        alone at a castle's location holds it, 4.3)."""
        held = [b for b in blocks if b == self.comp.protagonist(side)]
        if self.comp.locations[loc].castle is not None and loc not in state["besieged"]:
            others = sorted(
                (b for b in blocks if b not in held), key=lambda b: (-self.comp.blocks[b].mon, b)
            )
            held += others[:GARRISON]
        return held

    def _can_move(self, state: dict, side: str, loc: str, blocks: list[str]) -> bool:
        """Whether the whole stack has a move of one road at least (7.3.3-7.3.6), with
        every bonus it could get: a highway out, leadership and a force march."""
        highway = any(self.comp.road(loc, n) for n in self.comp.adjacent[loc])
        leaders = [b for b in blocks if self.comp.blocks[b].leader] or [None]
        try:
            lead = leadership(state, self.comp, side, loc, leaders[0]) is not None
        except RuleViolation:
            lead = False
        return capacity(highway, lead, True, len(blocks)) >= 1

    def _roads(self, a: str, b: str) -> int:
        return distances(self.comp)[a].get(b, 99)

    def _wasted_loyalty(self, state: dict, side: str, action: dict) -> int:
        kind = action["type"]
        if kind == "bid" and state["week"] == LAST_WEEK:
            return 0  # the last week's bid buys the game's last move: a use (6.3, 2.2)
        if kind == "bid":
            spent = [action["card"]]
        elif kind in ("level", "mori", "discard"):
            spent = list(action.get("cards", ()))
        else:
            return 0
        loyal = [c for c in spent if self.comp.cards[c].kind == "loyalty"]
        if kind == "discard":
            others = [
                c
                for c in state["cards"][side]["hand"]
                if c not in spent and self.comp.cards[c].kind != "loyalty"
            ]
            return min(len(loyal), len(others))
        return len(loyal)

    def _losses(self, before: dict, after: dict) -> None:
        for b, loc in after["blocks"].items():
            was = before["blocks"][b]
            if loc != ELIMINATED or was == ELIMINATED:
                continue
            side = self.comp.blocks[b].side
            self.counts[side]["lost"] += 1
            mates = [
                o
                for o, at in before["blocks"].items()
                if at == was and self.comp.blocks[o].side == side
            ]
            if len(mates) == 1:
                self.counts[side]["lone losses"] += 1
                self.fallen.append((side, self.claims.get(b, set())))

    def _claimed(self, before: dict, side: str, group: dict, after: dict) -> None:
        """The Resource Locations a moving group turned to its side (4.2: the last side to
        move a block onto or through one controls it), kept for each of its blocks."""
        took = {
            loc
            for loc in group.get("path", ())
            if after["control"].get(loc) == side and before["control"].get(loc) != side
        }
        for b in group["blocks"]:
            self.claims[b] = took

    def _counted(self, control: dict) -> None:
        """Control counts now: each lone loss whose claims its side no longer holds was
        for nothing."""
        for side, took in self.fallen:
            if not any(control.get(loc) == side for loc in took):
                self.counts[side]["lone for nothing"] += 1
        self.fallen = []


def blunder_table(hero: str, against: str, counted: list) -> str:
    """Each blunder counter (bench/blunders.py) per game on average, with a 95 % interval
    of the mean, for the player under test and beside it its opponent."""
    lines = [f"blunders a game over {len(counted)} games (mean, 95 % interval):"]
    for kind in KINDS:
        cells = []
        for who, i in ((hero, 0), (against, 1)):
            values = [c[i][kind] for c in counted]
            mean = statistics.fmean(values) if values else 0.0
            half = 0.0
            if len(values) > 1:
                half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
            cells.append(f"{who} {mean:.2f} ± {half:.2f}")
        lines.append(f"  {kind:12s}  " + ";  ".join(cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=20, help="games to play")
    parser.add_argument("--quick", action="store_true", help="CI's run: one game")
    args = parser.parse_args()
    comp = load_components()
    counted = []
    for i in range(1 if args.quick else args.games):
        hero = SIDES[i % 2]
        players = {
            s: (HeuristicPlayer if s == hero else FrozenHeuristic)(comp, {}, f"blunders-{i}-{s}")
            for s in SIDES
        }
        tally = Tally(comp)
        play(comp, f"{i:032x}", players, on_action=tally.action)
        counts = tally.finish()
        counted.append((counts[hero], counts[SIDES[1 - i % 2]]))
    print(blunder_table("heuristic", "frozen heuristic", counted))


if __name__ == "__main__":
    main()
