"""Random legal players: the fuzzer behind the property tests and `seki simulate`
(invariant_fuzzer).

Choices come from a second generator seeded from the game seed, so a failing game can be
replayed from its seed alone. Now and then a random side files a random battle plan
(rules/plans.py) - sometimes a broken one, which must be refused - so the plans answer
decisions in the middle of random play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..rules import rng
from ..rules.components import Components
from ..rules.cycle.setup import setup
from ..rules.engine import apply, pending, play
from ..rules.options import listing
from ..rules.state_types import State
from ..rules.vocab import SIDES, Malformed, other

PLAN_ODDS = 12  # about one action in 12 is a battle plan filed by a random side

StepHook = Callable[[State, State, str, dict, list], bool | None]  # True: stop the game there
ActionHook = Callable[[str, dict], None]
T = TypeVar("T")


def playout(
    comp: Components,
    seed: int,
    max_actions: int = 10_000,
    on_step: StepHook | None = None,
    plans: bool = True,
    on_action: ActionHook | None = None,
) -> State:
    """Play one random legal game from setup; call on_step(before, after, side, action,
    events) after every action (it stops the game by returning True), or the lighter
    on_action(side, action). Returns the last state. Without on_step the game is played
    on one state changed in place (no copy per action: `engine.play`)."""
    state, _ = setup(comp, f"{seed:032x}")
    chooser = rng.new(f"{seed + 10**6:032x}")
    for _ in range(max_actions):
        decisions = pending(state)
        if not decisions:
            break
        if plans and rng.below(chooser, PLAN_ODDS) == 0:
            side = SIDES[rng.below(chooser, 2)]
            plan, valid = random_plan(state, comp, side, chooser)
            action = {"type": "plan", "plan": plan}
            if not valid:
                _refused(state, comp, side, action)
                continue
        else:
            side = decisions[rng.below(chooser, len(decisions))]["side"]
            acts = listing(state, comp, side)
            action = acts[rng.below(chooser, len(acts))]
        if on_action is not None:
            on_action(side, action)
        if on_step is None:
            play(state, comp, side, action, listed=True)
            continue
        new, events = apply(state, comp, side, action)
        stop = on_step(state, new, side, action, events)
        state = new
        if stop:
            break
    return state


def _refused(state: State, comp: Components, side: str, action: dict) -> None:
    try:
        apply(state, comp, side, action)
    except Malformed:
        return
    raise AssertionError(f"a broken battle plan was accepted: {action['plan']!r}")


def random_plan(state: State, comp: Components, side: str, chooser: dict) -> tuple[object, bool]:
    """A battle plan for `side` made of random pieces of what it has, now and then a
    withdrawal (None), and one time in four a broken plan; True if it is well formed."""

    def pick(items: list[T]) -> T:
        return items[rng.below(chooser, len(items))]

    def some(items: list) -> list:
        return [pick(items) for _ in range(1 + rng.below(chooser, 3))]

    roll = rng.below(chooser, 8)
    if roll == 0:
        return None, True
    own = [
        b
        for b, w in sorted(state["blocks"].items())
        if comp.blocks[b].side == side and w in comp.locations
    ] or comp.side_blocks(side)
    enemy = comp.side_blocks(other(side))
    hand = sorted(state["cards"][side]["hand"])
    places = sorted(comp.locations)
    numbers = [-3, 0, 1, 2, 4, 7, 14]

    def section() -> dict:
        entries = [
            {
                "block": pick([*own, "any", "any", own[:2]]),
                "card": pick([*hand, "any", "any", "none"]),
                "when": pick(["always", "losing", {"lead_below": pick(numbers)}]),
                "pick": pick(["most", "least"]),
            }
            for _ in range(1 + rng.below(chooser, 3))
        ]
        units = own + [d for d, k in sorted(comp.disks.items()) if k.side == side]
        choices = {
            "castle": pick(["inside", "outside", "ask"]),
            "deploy": pick([entries, entries, "ask"]),
            "stop": pick(
                ["finish", "ask", {"lead": pick(numbers)}, {"lead": 3, "otherwise": "ask"}]
            ),
            "challenge": pick(["never", "always", "ask", some(enemy), {"min_impact": 3}]),
            "losses": pick([some(units), [*some(units), "any"], ["any"], "ask"]),
            "retreat": pick([["any"], some(places), {"to": some(places), "castle": 2}, "ask"]),
        }
        return {k: v for k, v in choices.items() if rng.below(chooser, 4)}

    plan = section()
    if rng.below(chooser, 2):
        plan["declare"] = pick([["any"], some(places), "ask"])
    if rng.below(chooser, 2):
        plan["at"] = {pick(places): section()}
    if roll < 6:
        return plan, True
    broken: dict[str, object] = pick(
        [
            {"bogus": 1},
            {"castle": "maybe"},
            {"deploy": [{"block": pick(enemy)}]},
            {"deploy": [{"when": {"lead_below": True}}]},
            {"stop": {"lead": 10**6}},
            {"challenge": {"blocks": own[:1] or ["?"]}},
            {"losses": 3},
            {"retreat": {"castle": 3}},
            {"at": {"nowhere": {}}},
            {"declare": []},
        ]
    )
    return {**plan, **broken}, False
