"""A full state consistent with what one side knows: its view, filled out with stand-ins.

A player checks an order offline (`seki turn check`) by applying it to this state with
the engine. Everything the side can see is exact; the enemy's hidden blocks are stand-ins
with the right counts in the right places (ordinary blocks before leaders, so a stand-in
is never mistaken for a protagonist), the enemy's hidden cards are arbitrary cards of its
deck, and no Loyalty Challenge of the enemy is assumed spent (asking about a challenge
that cannot come is the safe mistake). Random draws differ from the referee's.

Given a generator (`chooser`), the shadow is instead one sample of the states the side
cannot tell apart, for the search player (bot/search.py): the enemy's hidden blocks are
dealt at random over its stacks, Recruitment Box and bag (a block placed at setup never
returns to a bag, so those are always on the map), both sides' unseen cards are
shuffled over hand, draw pile and discards, the enemy's sealed decision is left unmade,
and the game's own generator is new, so each sample draws differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from . import rng
from .components import Components
from .engine import pending
from .state import new_state
from .state_types import Combat, Fight, Phase, State
from .vocab import BAG, ELIMINATED, MORI_BOX, RECRUIT, SIDES, other

SHADOW_SEED = "5e" * 16

# Events after which a side's shadow still matches the real game: nothing random, nothing
# hidden from the side, nothing the enemy decided.
FORESEEN = frozenset(
    ("movement_level", "discard", "move", "control", "muster", "mori", "end_movement")
    + ("declare", "castle_choice", "battle", "siege", "deploy", "plan", "by_plan")
)


def foreseen(after: State, events: list, side: str) -> bool:
    """Whether `side` may decide its next action on its shadow too, in the same turn file:
    only foreseeable events happened (no draw, no sealed decision, no overrun, no
    challenge, no result), none of them by the enemy, and the decision is still its own.
    Otherwise the referee may see something the shadow cannot, and the next packet asks.
    The turn loop's rule (rules/turn.py, `ShadowCopy`) as one test, for the frozen
    baseline's chain (bench/baseline_v1), which keeps its own loop."""
    if unforeseen(events, side) is not None:
        return False
    return any(d["side"] == side for d in pending(after))


def unforeseen(events: list, side: str) -> str | None:
    """The type of the first event the shadow of `side` can only guess (`foreseen`)."""
    at = unforeseen_at(events, side)
    return None if at is None else str(events[at]["type"])


def unforeseen_at(events: list, side: str) -> int | None:
    """The index of the first event the shadow of `side` can only guess, if any."""
    enemy = other(side)
    for i, e in enumerate(events):
        if e["type"] not in FORESEEN or e.get("side") == enemy:
            return i
    return None


def shadow_state(
    comp: Components,
    v: dict,
    options: dict,
    chooser: dict | None = None,
    members: Mapping[str, Mapping[str, float]] | None = None,
) -> State:
    """A state whose view for `v["own"]["side"]` is `v`: the stand-ins, or with `chooser`
    (a generator of rules/rng.py, which it advances) a random sample (module docstring),
    the enemy's hidden blocks dealt by a belief over them if one is given (`members`:
    place -> {block: chance it is there}, bot/belief.py)."""
    own = v["own"]
    side = own["side"]
    seed = SHADOW_SEED if chooser is None else "".join(_hex8(chooser) for _ in range(2))
    state = new_state(comp, dict(options), rng.new(seed), v["step"])
    for key in ("week", "turn", "first", "active", "bid_winner", "result"):
        state[key] = v[key]
    state["control"] = dict(v["control"])
    state["besieged"] = dict(v["besieged"])
    _blocks(state, comp, v, side, chooser, members)
    _disks(state, comp, v)
    _cards(state, comp, v, side, chooser)
    for loc, counts in v["stacks"].items():
        present = {s for s in SIDES if counts.get(s)}
        present |= {comp.disks[d].side for d in counts.get("disks", [])}
        if len(present) > 1 and comp.locations[loc].castle is not None:
            state["castle_owner"][loc] = v["castles"][loc]
    if own.get("sealed") is not None:
        state["sealed"][side] = own["sealed"]
    if own.get("plan") is not None:  # its own battle plan; the opponent's is unknown
        state["plans"][side] = own["plan"]
    for s in v["sealed"]:
        if s != side and chooser is None:
            state["sealed"][s] = _stand_in_sealed(state, v["step"], s)
    state["phase"] = _phase(v, own)
    state["combat"] = _combat(state, comp, v)
    return state


def _hex8(chooser: dict) -> str:
    return f"{rng.below(chooser, 1 << 64):016x}"


def _blocks(
    state: State,
    comp: Components,
    v: dict,
    side: str,
    chooser: dict | None,
    members: Mapping[str, Mapping[str, float]] | None,
) -> None:
    own = v["own"]
    for loc, ids in own["blocks"].items():
        for b in ids:
            state["blocks"][b] = loc
    for b in own["recruit"]:
        state["blocks"][b] = RECRUIT
    for b in v["mori_box"]:
        state["blocks"][b] = MORI_BOX
    for b in v["eliminated"]:
        state["blocks"][b] = ELIMINATED
    enemy = other(side)
    placed: dict[str, int] = {}
    fight = (v.get("combat") or {}).get("fight") or {}
    for d in fight.get("deployments", []):
        for b in d["blocks"]:
            if comp.blocks[b].side == enemy and state["blocks"][b] == BAG:
                state["blocks"][b] = fight["location"]
                placed[fight["location"]] = placed.get(fight["location"], 0) + 1
    slots = [
        loc
        for loc, counts in v["stacks"].items()
        for _ in range(counts.get(enemy, 0) - placed.get(loc, 0))
    ]
    hidden = [b for b in comp.side_blocks(enemy) if state["blocks"][b] == BAG]
    if chooser is not None and members is not None:
        slots += [RECRUIT] * v["recruit"][enemy]
        for loc, b in zip(slots, _believed(comp, hidden, slots, chooser, members), strict=False):
            state["blocks"][b] = loc
        return
    pool = _dealt(comp, hidden, len(slots), chooser)
    for loc in slots:
        state["blocks"][pool.pop(0)] = loc
    for _ in range(min(v["recruit"][enemy], len(pool))):
        state["blocks"][pool.pop(0)] = RECRUIT


def _dealt(comp: Components, hidden: list[str], on_map: int, chooser: dict | None) -> list[str]:
    """The enemy's hidden blocks in dealing order: the first `on_map` go to its stacks.
    Stand-ins put ordinary blocks before leaders, so a stand-in is never its protagonist;
    a sample puts the setup blocks (which never go back to a bag) on the map, and
    otherwise deals at random."""
    if chooser is None:
        return sorted(hidden, key=lambda b: (comp.blocks[b].leader, b))
    fixed = sorted(b for b in hidden if comp.blocks[b].setup)
    free = sorted(b for b in hidden if not comp.blocks[b].setup)
    rng.shuffle(chooser, fixed)
    rng.shuffle(chooser, free)
    cut = max(0, on_map - len(fixed))
    mapped = fixed + free[:cut]
    rng.shuffle(chooser, mapped)
    return mapped + free[cut:]


def _believed(
    comp: Components,
    hidden: list[str],
    slots: list[str],
    chooser: dict,
    members: Mapping[str, Mapping[str, float]],
) -> list[str]:
    """A block for each slot, drawn from those not yet dealt by the odds the belief
    gives it of being at the slot's place, p / (1 - p): drawn one slot at a time by
    the chance itself, five blocks each nearly sure to be at a place of six would leave
    one of them out as often as not (conditional Poisson sampling). Any block that may be
    there keeps a little weight (a belief is a guess; a setup block is never in the
    Recruitment Box, 5.2.1)."""
    left = sorted(hidden)
    out = []
    for place in slots:
        if not left:
            break
        chances = members.get(place, {})
        weights = [0 if place == RECRUIT and comp.blocks[b].setup else _odds(chances.get(b, 0))
                   for b in left]  # fmt: skip
        if not any(weights):
            weights = [1] * len(left)
        pick = rng.below(chooser, sum(weights))
        for i, w in enumerate(weights):
            if pick < w:
                out.append(left.pop(i))
                break
            pick -= w
    return out


def _odds(chance: float) -> int:
    """A chance's odds as a whole weight for the generator (rng.below), at least one."""
    return round(SCALE * chance / max(1.0 - chance, SURE)) + 1


SCALE = 1000
SURE = 0.001  # the odds of a chance of one are those of 0.999


def _disks(state: State, comp: Components, v: dict) -> None:
    for d in v["disks_eliminated"]:
        state["disks"][d] = ELIMINATED


def _cards(state: State, comp: Components, v: dict, side: str, chooser: dict | None) -> None:
    for s in SIDES:
        hand = list(v["own"]["hand"]) if s == side else []
        rest = [c for c in sorted(comp.deck(s)) if c not in hand]
        fight = (v.get("combat") or {}).get("fight") or {}
        played = list(fight.get("played", {}).get(s, []))
        rest = [c for c in rest if c not in played]
        if chooser is not None:
            rng.shuffle(chooser, rest)
            if s != side:
                hand, rest = rest[: v["hands"][s]], rest[v["hands"][s] :]
        elif s != side:  # the enemy's Loyalty Challenges are kept out of its discard pile
            rest.sort(key=lambda c: comp.cards[c].kind != "loyalty")
            hand = rest[: v["hands"][s]]
            rest = rest[v["hands"][s] :]
        discard = rest[len(rest) - v["discards"][s] :] if v["discards"][s] else []
        deck = rest[: len(rest) - len(discard)]
        state["cards"][s] = {"deck": deck, "hand": hand, "discard": discard}


def _stand_in_sealed(state: State, step: str, side: str) -> object:
    hand = state["cards"][side]["hand"]
    if step == "bid":
        return hand[0] if hand else None
    return hand[: len(hand) // 2]


def _phase(v: dict, own: dict) -> Phase | None:
    public = v["phase"]
    if public is None:
        return None
    return {
        "level": public["level"],
        "moves_left": public["moves_left"],
        "mustered": public["mustered"],
        "sources": list(public["sources"]),
        "moved": list(own["moved"]),
        "arrived": dict(own.get("arrived_by", {})),
        "roads": list(public["roads"]),
        "entered": {loc: list(f) for loc, f in public["entered"].items()},
    }


def _combat(state: State, comp: Components, v: dict) -> Combat | None:
    public = v.get("combat")
    if public is None:
        return None
    shown = public["fight"]
    fight: Fight | None = None
    if shown is not None:
        # the public fight's keys are the fight's (views.FIGHT_PUBLIC), the required ones
        # among them: without its forces (counts there) and deployments, it is a fight
        kept = {k: val for k, val in shown.items() if k not in ("forces", "deployments")}
        fight = cast(Fight, kept)
        fight["entered"] = list(fight.get("entered", []))
        if "forces" in shown:
            loc = fight["location"]
            gone = {u for units in fight["lost"].values() for u in units}
            fight["forces"] = {
                s: sorted(
                    b
                    for b, w in state["blocks"].items()
                    if comp.blocks[b].side == s and (w == loc or b in gone)
                )
                for s in shown["forces"]
            }
            fight["deployments"] = [dict(d) for d in shown["deployments"]]
            fight["refute"] = None
    return {
        "side": public["side"],
        "resolved": list(public["resolved"]),
        "entered": {loc: list(f) for loc, f in public["entered"].items()},
        "queue": [],
        "fight": fight,
    }
