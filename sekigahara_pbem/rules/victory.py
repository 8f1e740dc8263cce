"""Victory: instant (2.1) and on points after week 7 (2.2)."""

from __future__ import annotations

from . import slots
from .components import Components
from .control import castle_counts, forget_owners, resource_counts
from .state_types import State
from .vocab import ELIMINATED, ISHIDA, OVER, SIDES, TOKUGAWA, Unknown, other


def points(state: State, comp: Components, held: dict[str, str] | None = None) -> dict[str, int]:
    """2.2: two points per castle, one per resource location. `held`: who holds each
    castle (control.castles), when the caller has it."""
    castles = castle_counts(state, comp, held)
    resources = resource_counts(state, comp)
    return {s: 2 * castles[s] + resources[s] for s in SIDES}


def _instant_winners(state: State, comp: Components) -> list[tuple[str, str]]:
    wins = []
    ishida = comp.protagonist(ISHIDA)
    tokugawa = comp.protagonist(TOKUGAWA)
    if _eliminated(state, comp, ishida):
        wins.append((TOKUGAWA, f"{ishida} killed"))
    for disk in comp.disks.values():
        if disk.instant_loss and state["disks"].get(disk.id) == ELIMINATED:
            wins.append((TOKUGAWA, f"{disk.name} captured"))
    if _eliminated(state, comp, tokugawa):
        wins.append((ISHIDA, f"{tokugawa} killed"))
    return wins


def _eliminated(state: State, comp: Components, block: str | None) -> bool:
    """Whether a protagonist is eliminated. A two-party copy that knows the block only as
    a stand-in cannot tell while a stand-in of its side lies eliminated, unopened."""
    if block is None:  # a component set without a protagonist for the side
        return False
    where = state["blocks"].get(block)
    if where is not None or not slots.unbound(state):
        return where == ELIMINATED
    side = comp.blocks[block].side
    for b, w in state["blocks"].items():
        if w == ELIMINATED and slots.is_stand_in(b) and comp.blocks[b].side == side:
            raise Unknown(f"whether {block} is among the eliminated")
    return False


def check_instant(state: State, comp: Components, events: list) -> bool:
    """2.1: end the game if a protagonist died or Hideyori was captured.
    If both sides win at once, Ishida wins."""
    if state["result"] is not None:
        return True
    wins = _instant_winners(state, comp)
    if not wins:
        return False
    winners = {w for w, _ in wins}
    winner = ISHIDA if ISHIDA in winners else TOKUGAWA
    result = state["result"] = {
        "winner": winner,
        "how": "instant",
        "rule": "2.1",
        "reason": "; ".join(reason for _, reason in wins),
    }
    state["step"] = OVER
    state["active"] = None
    forget_owners(state, comp)  # the game may end mid-combat: leave no stale siege marks
    events.append({"type": "game_over", **result})
    return True


def resign(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """A side may concede at any moment, even when nothing is asked of it (docs/rulings.md,
    "Resignation"); the other side wins at once."""
    winner = TOKUGAWA if side == ISHIDA else ISHIDA
    result = state["result"] = {
        "winner": winner,
        "how": "resignation",
        "rule": "2",
        "reason": f"{side} resigned",
    }
    state["step"] = OVER
    state["active"] = None
    forget_owners(state, comp)
    events.append({"type": "game_over", **result})


FORFEITS = ("deadline", "reveal")  # what a forfeit is for (docs/two-party.md, "Deadlines")


def forfeit(state: State, side: str, rule: str, reason: str, events: list) -> None:
    """`side` loses by the game's protocol, not by the rules: it sent nothing within a
    deadline (`rule` "deadline"), or did not reveal its secret after the game ended
    ("reveal": the result played is kept under `played`). The position stays as it stood:
    nothing is played for the side, as the forfeit is all that is decided."""
    if rule not in FORFEITS or (state["result"] is not None) != (rule == "reveal"):
        raise ValueError(f"no forfeit for {rule!r} in a game whose result is {state['result']}")
    result: dict[str, object] = {
        "winner": other(side), "how": "forfeit", "rule": rule, "reason": reason,
    }  # fmt: skip
    if rule == "reveal":
        result["played"] = state["result"]
    state["result"] = result
    state["step"] = OVER
    state["active"] = None
    events.append({"type": "game_over", **result})


def finish_on_points(state: State, comp: Components, events: list) -> None:
    """2.2: after week 7, the higher total wins; a tie goes to Ishida."""
    score = points(state, comp)
    winner = TOKUGAWA if score[TOKUGAWA] > score[ISHIDA] else ISHIDA
    result = state["result"] = {"winner": winner, "how": "points", "rule": "2.2", "points": score}
    state["step"] = OVER
    state["active"] = None
    events.append({"type": "game_over", **result})
