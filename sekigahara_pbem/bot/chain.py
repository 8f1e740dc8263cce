"""The two loops the bots play by: the chain of one turn file, decided on the side's shadow
state, and a game played on from a real state by players deciding from their views.

`turn_file` is how the heuristic and the search player answer a packet: each decision is
chosen and played on the shadow (rules/shadow.py), and the file ends as soon as the shadow
could part from the real game (a random draw, a combat's result, anything the enemy
decides) or asks nothing more of the side. `play_on` is how bot/match.py plays a whole
game and bot/rollout.py a rollout: while the game waits, the first side asked is given its
view and options, and its actions are applied to the real state while it is still asked;
one the engine refuses is replaced by the first option offered.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules.components import Components
from ..rules.engine import apply, pending
from ..rules.options import options
from ..rules.shadow import shadow_state
from ..rules.state_types import State
from ..rules.turn import ShadowCopy, drive, turn
from ..rules.views import view
from ..rules.vocab import Malformed, RuleViolation

MAX_CHAIN = 60  # actions in one turn file (protocol/turns.py allows 200)

# choose(view, offered, shadow): one action among those offered for the decision in view
Choose = Callable[[dict, list[dict], State], dict]
# decide(state, side, offered): the actions of the turn file `side` sends (a view's answer)
Decide = Callable[[State, str, list[dict]], list[dict]]
# on_action(before, side, action, after): an action the engine applied (bench counters)
OnAction = Callable[[State, str, dict, State], None]
# watch(events): the events of an action applied, unredacted (each player sees its part)
Watch = Callable[[list[dict]], None]


def turn_file(
    comp: Components,
    game_options: dict,
    v: dict,
    offered: list[dict],
    choose: Choose,
    given: Sequence[dict] = (),
) -> list[dict]:
    """The actions of one turn file answering the decision `v` asks for: the `given`
    ones (a battle plan), then `choose`'s, each played on the shadow state by the turn
    loop (rules/turn.py) while nothing unforeseeable happens and the side is still asked,
    MAX_CHAIN at the most."""
    if not offered:
        return []
    side = v["own"]["side"]
    copy = ShadowCopy(shadow_state(comp, v, game_options), comp, side)
    chosen: list[dict] = []

    def pick(shadow: State) -> dict | None:
        nonlocal v, offered
        if len(chosen) == MAX_CHAIN:
            return None
        if chosen:
            v, offered = view(shadow, comp, side), options(shadow, comp, side)
            if not offered:
                return None
        action = given[len(chosen)] if len(chosen) < len(given) else choose(v, offered, shadow)
        chosen.append(action)
        return action

    # a refusal: the shadow cannot follow, so the file sends what the packet offered
    with contextlib.suppress(RuleViolation, Malformed):
        drive(turn(copy, opening=True), pick)  # opening: the packet asks it of the side
    return chosen


@dataclass
class Played:
    """A game played on by `play_on`: its state, the turn files sent and actions applied,
    and what the engine refused (each replaced by the first option)."""

    state: State
    turn_files: int = 0
    actions: int = 0
    refused: list[str] = field(default_factory=list)


def play_on(
    comp: Components,
    state: State,
    decide: Decide,
    limit: int,
    stop: Callable[[State], bool] | None = None,
    on_action: OnAction | None = None,
    watch: Watch | None = None,
) -> Played:
    """Play from `state` while the game waits (and `stop(state)` is not true), at most
    `limit` turn files: the first side asked sends `decide(state, side, offered)`, each
    action applied while that side is still asked (the first option if it sends none);
    one the engine refuses is noted, the first option played instead, and the file ends.
    `on_action` is shown each action applied, with the states before and after it, and
    `watch` its events (or the events of the first option played instead)."""
    played = Played(state)
    for _ in range(limit):
        waiting = pending(played.state)
        if not waiting or (stop is not None and stop(played.state)):
            break
        side = waiting[0]["side"]
        offered = options(played.state, comp, side)
        chosen = decide(played.state, side, offered)
        played.turn_files += 1
        for i, action in enumerate(chosen or offered[:1]):
            if i and not any(d["side"] == side for d in pending(played.state)):
                played.refused.append(f"{side}: {action} sent after its decision had passed")
                break
            before = played.state
            try:
                played.state, events = apply(before, comp, side, action)
            except (RuleViolation, Malformed) as exc:
                played.refused.append(f"{side}: {action}: {exc}")
                played.state, events = apply(before, comp, side, offered[0])
                if watch is not None:
                    watch(events)
                break
            played.actions += 1
            if watch is not None:
                watch(events)
            if on_action is not None:
                on_action(before, side, action, played.state)
    return played
