"""Shared vocabulary of the engine: sides, steps, box names, the two error kinds, and the
signal that a copy of the state lacks a value.

Nothing else lives here, so every other module can import it without cycles.
"""

from __future__ import annotations

from typing import Any

from ..refusal import N_ as N_  # the engine's marker for refusal templates (refusal.py)
from ..refusal import Code, Refusal, SekiError
from ..refusal import Phrase as Phrase

ISHIDA = "ishida"
TOKUGAWA = "tokugawa"
SIDES = (ISHIDA, TOKUGAWA)

# Where a block can be when it is not on a map location.
BAG = "bag"
RECRUIT = "recruit"
MORI_BOX = "mori"
ELIMINATED = "eliminated"
OFF_MAP = (BAG, RECRUIT, MORI_BOX, ELIMINATED)

# Steps of the weekly cycle (rule 6) that need a decision, and the end.
DISCARD = "discard"  # 6.2 discard half the hand (simultaneous)
BID = "bid"  # 6.3 sealed bids (simultaneous)
CHOOSE_FIRST = "choose_first"  # 6.3 the bid winner picks the first player
MOVEMENT = "movement"  # 7
COMBAT = "combat"  # 8
OVER = "over"

STEPS = (DISCARD, BID, CHOOSE_FIRST, MOVEMENT, COMBAT, OVER)
LAST_WEEK = 7  # 6.4
STARTING_HAND = 5  # 5.1: the cards each side is dealt

# Combat (8): the two kinds, and the decisions a combat waits for, in the order they come.
BATTLE = "battle"  # 8.2
SIEGE = "siege"  # 8.9
DECLARE = "declare"  # 8.1 the phasing player picks the next location
CASTLE = "castle"  # 8.9.2 the castle's owner chooses inside or outside
DEPLOY = "deploy"  # 8.2.3, 8.5 the side with the initiative deploys or finishes
CHALLENGE = "challenge"  # 8.6 the opponent may challenge the deployment just made
LOSSES = "losses"  # 8.7.2, 8.9.4 C a side picks the units it loses
RETREAT = "retreat"  # 8.8 the loser picks where its force goes

# Actions a side may take whether or not a decision is asked of it (their handlers:
# engine.ANYTIME); named here for the protocol, which reads a turn file without the engine.
ANYTIME_ACTIONS = ("resign", "plan")

# Movement levels bought with cards (7.1): name -> (cards spent, stack moves or None=all).
LEVELS = {
    "none": (0, 0),
    "minimal": (0, 1),
    "limited": (1, 3),
    "total": (2, None),
}
# Their names as a person reads them (the English is the name; put in words where shown).
LEVEL_WORDS = {"none": N_("none"), "minimal": N_("minimal"), "limited": N_("limited"),
               "total": N_("total")}  # fmt: skip


def other(side: str) -> str:
    """The opposing side."""
    return TOKUGAWA if side == ISHIDA else ISHIDA


class RuleViolation(Refusal):
    """An order that is understood but not allowed; names the rule it breaks. The message
    is a template marked with N_ and filled with `params` (refusal.py), so that a player
    reads it in their language: `RuleViolation("7.3.1", N_("no road from {a} to {b}"),
    a=..., b=...)`."""

    code = Code.ILLEGAL

    # (Any, not object: the values only fill the template, and no template names code, rule
    # or at, which a value of a mapping of objects could be for all the checker knows.)
    def __init__(self, rule: str, message: str, **params: Any):
        super().__init__(message, rule=rule, at=rule, **params)


class Malformed(Refusal):
    """An order that cannot be understood (wrong shape, unknown id); names the field. The
    message is a template, as RuleViolation's."""

    def __init__(self, field: str, message: str, **params: Any):
        super().__init__(message, at=field, **params)
        self.field = field


class Unknown(SekiError):
    """The state at hand does not hold a value this step reads: in a two-party game each
    side's copy holds only its own secrets (docs/two-party.md), so the step is the other
    side's to compute. Not a refusal: nothing is wrong with the order."""

    def __init__(self, what: str):
        super().__init__(f"needs {what}")
        self.what = what
