"""8.9.2: the castle's owner, with two blocks or fewer, fights inside (a siege) or outside
(a battle)."""

from __future__ import annotations

from ..combat import combat
from ..components import Components
from ..plans import policy
from ..state import fight_of
from ..state_types import State
from ..vocab import CASTLE, COMBAT
from .kind import Candidates, Choice, Dialogue, Kind, Question


def deciders(state: State) -> list[dict]:
    fight = fight_of(state)
    return [{"side": fight["castle_side"], "decision": CASTLE, "location": fight["location"]}]


def options(state: State, comp: Components, side: str) -> list[dict]:
    return [{"type": "castle", "inside": True}, {"type": "castle", "inside": False}]


SALLY = "castle_sally"  # the question put to an active player that owns the castle


def guide(state: State, comp: Components, side: str) -> Dialogue:
    """One question, titled with the castle attacked; or, put to the active player (its
    own blocks besieged there), whether to come out: inside, no combat happens there
    this phase (8.9.2). It was asked as if its castle were attacked."""
    legal = options(state, comp, side)
    context = {"at": fight_of(state)["location"]}
    key = SALLY if side == state["active"] else CASTLE
    answer = yield Question(key, tuple(Choice(a) for a in legal), context=context)
    return answer


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """Stay inside the castle."""
    return {"type": "castle", "inside": True}


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    choice, entry = policy(plan, decision["location"], "castle")
    if choice in ("inside", "outside"):
        yield {"type": "castle", "inside": choice == "inside"}, entry


KIND = Kind(
    name=CASTLE,
    step=COMBAT,
    rule="8.9.2",
    turn_rule="8.9.2",
    siege_turn_rule="8.9.2",
    actions={"castle": combat.choose_castle},
    fields={"castle": {}},
    deciders=deciders,
    options=options,
    guide=guide,
    passive=passive,
    plan=plan,
)
