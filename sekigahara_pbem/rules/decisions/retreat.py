"""8.8: the loser of a battle retreats its remaining force to one adjacent location the
rules allow, up to two blocks into the castle if its side controlled it (8.8.4); then
replenishment (8.10). A retreat with one destination and no castle is taken for it."""

from __future__ import annotations

from itertools import combinations

from ..combat import aftermath, combat
from ..components import Components
from ..plans import ANY, ASK, policy
from ..state import fight_of
from ..state_types import Fight, State
from ..vocab import COMBAT, RETREAT
from .kind import Candidates, Choice, Dialogue, Kind, Question

MAX_LISTED = 200  # castle selections a packet lists per size; the dialogue has them all


def deciders(state: State) -> list[dict]:
    fight = fight_of(state)
    return [{"side": aftermath.loser(fight), "decision": RETREAT, "location": fight["location"]}]


def _force(state: State, fight: Fight) -> list[str]:
    loser = aftermath.loser(fight)
    return [b for b in fight["forces"][loser] if state["blocks"][b] == fight["location"]]


def options(state: State, comp: Components, side: str) -> list[dict]:
    """Every destination, and with a castle every choice of up to two blocks to leave in it
    (the force is listed in full only while it is small)."""
    fight = fight_of(state)
    allowed, castle = aftermath.retreat_options(state, comp, fight)
    force = _force(state, fight)
    stays: list[list[str]] = [[]]
    if castle:
        for k in range(1, aftermath.CASTLE_LIMIT + 1):
            stays += [list(c) for c in combinations(force, k)][:MAX_LISTED]
    acts = []
    for stay in stays:
        if len(stay) == len(force):
            acts.append({"type": "retreat", "castle": stay})
            continue
        acts += [{"type": "retreat", "to": to, "castle": stay} for to in allowed]
    return acts


def guide(state: State, comp: Components, side: str) -> Dialogue:
    """Who stays in the castle (when it may take them), then where the rest go."""
    fight = fight_of(state)
    allowed, castle = aftermath.retreat_options(state, comp, fight)
    force = _force(state, fight)
    stay: list[str] = []
    at = {"at": fight["location"]}
    if castle:
        picked = yield Question(
            "castle_stay", tuple(Choice(b) for b in force), "any", [], aftermath.CASTLE_LIMIT, at
        )
        stay = list(picked)
    if len(stay) == len(force):
        return {"type": "retreat", "castle": stay}
    to = yield Question("retreat_to", tuple(Choice(loc) for loc in allowed), context=at)
    return {"type": "retreat", "to": to, "castle": stay}


def forced(state: State, comp: Components, events: list) -> bool:
    fight = fight_of(state)
    to = aftermath.forced_retreat(state, comp, fight)
    if to is None:
        return False
    aftermath.do_retreat(state, comp, fight, to, [], events)
    combat.finish_fight(state, comp, fight, events)
    return True


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """The first legal retreat: it is compulsory."""
    return legal[0]


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """The first listed destination the rules allow, with the blocks the plan keeps in the
    castle when the castle may take them (8.8.4)."""
    fight = fight_of(state)
    pol, where = policy(plan, fight["location"], "retreat")
    if pol is None or pol == ASK:
        return
    if isinstance(pol, list):
        pol = {"to": pol}
    force = _force(state, fight)
    allowed, castle = aftermath.retreat_options(state, comp, fight)
    stay: list[str] = []
    if castle:
        keep = pol.get("castle", 0)
        if isinstance(keep, list):
            stay = [b for b in keep if b in force]
        else:
            strongest = sorted(force, key=lambda b: (-comp.blocks[b].mon, b))
            stay = strongest[:keep]
    if len(stay) == len(force):
        yield {"type": "retreat", "castle": stay}, f"{where}.castle"
        return
    order = pol.get("to", ASK)
    for loc in [] if order == ASK else order:
        for to in sorted(allowed) if loc == ANY else [loc]:
            if to in allowed:
                yield {"type": "retreat", "to": to, "castle": stay}, where


KIND = Kind(
    name=RETREAT,
    step=COMBAT,
    rule="8.8.1",
    turn_rule="8.8.1",
    siege_turn_rule="8.8.1",
    actions={"retreat": combat.retreat},
    fields={"retreat": {"to": ("location", False), "castle": ("block", True)}},
    deciders=deciders,
    options=options,
    guide=guide,
    forced=forced,
    passive=passive,
    plan=plan,
)
