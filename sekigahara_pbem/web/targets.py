"""Where on the page a choice can be answered besides its button: the place on the map it
names (a stack to move, a step of a path, a destination, a location to declare), the
card of the hand it names (a bid, a discard, a deployment's card, a challenge), or the
block or disk it names, drawn as a tile to click (the blocks that go, stay behind or
split off, 7.3; the units lost, 8.7.2).

One small function each, read from the dialogues of rules/decisions/: a step that only a
force march reaches is offered as (location, True) (stack_move.Stack.steps), so its place
is drawn dashed; stopping a column is a click on where the column is (the question's
`at`); the one-question dialogues offer whole actions, of which a declaration names its
location and a bid, a deployment or a challenge its card.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules.components import Components
from ..rules.decisions import Choice, Question
from ..rules.decisions.stack_move import STOP

# The questions whose every choice is a location (rules/decisions/movement.py, retreat.py,
# stack_move.py).
LOCATION_QUESTIONS = frozenset(("stack", "muster_to", "retreat_to"))


class Place(NamedTuple):
    """A location that answers a choice; `march`: only a force march gets there (7.3.3)."""

    loc: str
    march: bool = False


def place(question: Question, choice: Choice, comp: Components) -> Place | None:
    """The location a click on the map answers this choice with, or None."""
    value = choice.value
    if question.key == "step":
        if isinstance(value, tuple):
            return Place(value[0], True)
        if value == STOP:
            return Place(str(question.context["at"]))
        return Place(value) if value in comp.locations else None
    if question.key in LOCATION_QUESTIONS:
        return Place(str(value))
    if isinstance(value, dict) and value.get("type") == "declare":
        return Place(value["location"])
    return None


def card(choice: Choice, comp: Components) -> str | None:
    """The card of the hand this choice names, or None: a card picked by itself (discard,
    movement level, force march, Mōri), or the card of a whole action (bid, deployment,
    Loyalty Challenge)."""
    value = choice.value
    if isinstance(value, dict):
        value = value.get("card")
    return value if isinstance(value, str) and value in comp.cards else None


def unit(choice: Choice, comp: Components) -> str | None:
    """The block or disk this choice names, or None."""
    value = choice.value
    if isinstance(value, str) and (value in comp.blocks or value in comp.disks):
        return value
    return None
