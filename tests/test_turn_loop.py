"""The one turn loop (rules/turn.py): a side's actions taken on its copy, in order, until
its copy's rule stops the turn; the rule is the copy's, the loop the same for every mode."""

from __future__ import annotations

import random

from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.shadow import foreseen
from sekigahara_pbem.rules.turn import ONE, WAITING, OneDecision, ShadowCopy, drive, turn

MOVING = {
    "week": 2, "turn": "A", "step": "movement", "first": "ishida", "active": "ishida",
    "hands": {"ishida": ["mori-1", "mori-2", "ukita-1", "ukita-2", "uesugi-1"]},
}  # fmt: skip


def _chooser(comp, side: str, seed: int, taken: list):
    pick = random.Random(seed)

    def choose(state):
        action = pick.choice(options(state, comp, side))
        taken.append((state, action))
        return action

    return choose


def test_a_shadow_turn_is_the_engine_s_actions_in_order_until_the_side_cannot_foresee(comp):
    """Over a game of random choices, turn after turn: each action is the engine's `apply`
    on the state before it, and the turn goes on after each action but the last exactly
    where `shadow.foreseen` says the side may go on, and ends where it says it may not."""
    state, _ = setup(comp, f"{7:032x}")
    ends: set = set()
    for turns in range(400):
        if state["result"] is not None:
            break
        side = pending(state)[0]["side"]
        copy = ShadowCopy(state, comp, side)
        taken: list = []
        ends.add(drive(turn(copy), _chooser(comp, side, turns, taken)))
        assert taken, turns
        for i, (before, action) in enumerate(taken):
            after, events = apply(before, comp, side, action)
            last = i == len(taken) - 1
            assert foreseen(after, events, side) is not last, (turns, i)
            assert after == (copy.state if last else taken[i + 1][0])
        state = copy.state
    assert state["result"] is not None and {WAITING, "sealed", "losses"} <= ends, ends


def test_an_answer_taken_back_ends_the_drive_and_nothing_more_is_taken(comp):
    """A chooser that gives None (a person took an answer back) ends the drive with None;
    the copy keeps what was taken before it, for the caller to build again."""
    copy = ShadowCopy(build_position(comp, MOVING), comp, "ishida")
    given = iter([{"type": "level", "level": "limited", "cards": ["uesugi-1"]}, None])
    assert drive(turn(copy), lambda _state: next(given)) is None
    assert copy.state["cards"]["ishida"]["hand"] == ["mori-1", "mori-2", "ukita-1", "ukita-2"]


def test_one_decision_is_one_action_not_taken(comp):
    """A two-party record's decision (play/two_party.py): one action chosen, the copy
    left as it was, for the record's own copy to go on (twoparty/exchange.py)."""
    start = build_position(comp, MOVING)
    copy = OneDecision(start, comp, "ishida")
    taken: list = []
    assert drive(turn(copy), _chooser(comp, "ishida", 0, taken)) == ONE
    assert len(taken) == 1 and copy.state is start


def test_a_side_not_asked_decides_nothing_unless_the_turn_opens_with_a_plan(comp):
    """The copy asks nothing of the side whose decision it is not; `opening` takes one
    decision anyway (a battle plan, filed at any moment)."""
    state = build_position(comp, MOVING)
    assert drive(turn(ShadowCopy(state, comp, "tokugawa")), lambda _s: None) == WAITING
    plan = {"type": "plan", "plan": None}
    opened = ShadowCopy(state, comp, "tokugawa")
    assert drive(turn(opened, opening=True), lambda _s: plan) == WAITING
