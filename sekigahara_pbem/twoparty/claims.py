"""What a two-party record may claim for its author (docs/two-party.md, "Claims").

A reader retraces every step of the other side's record on its own copy. A step it cannot
take reads items of the author that the reader has not been shown (`Unknown`). The rules
ask such a question without the items being opened at two places only, and each answer
is one the author could give at the table at no gain:

- 8.5: whether the side with the initiative has a legal deployment (from its hand and its
  blocks not yet deployed). Its record answers "none" by taking the forced step, which
  finishes its deployments: the finish it may always choose.
- 8.6.1: whether the deployer can show a card refuting a Loyalty Challenge. Its record
  opens the card it shows, or answers "none", and its blocks defect: to its own cost.

The reader takes nothing else from the record: it takes that one step on its own copy
with the author's cards and undeployed blocks it has not seen set aside (what the claim
says: they change nothing here), puts them back, and goes on with its own engine; the
public form it reaches must be the record's. So a record never moves, opens or removes
the reader's items, nor ends the game, other than as the rules do after that answer; and
a false "none" is named by the audit at the end (twoparty/audit.py).
"""

from __future__ import annotations

from ..rules.components import Components
from ..rules.decisions import current
from ..rules.engine import carry_on, handle
from ..rules.state import clone, fight_of
from ..rules.state_types import State
from ..rules.vocab import CHALLENGE, DEPLOY, Unknown
from . import knowledge as kn


def forced_step(state: State, kc: Components, author: str) -> tuple[State, list] | None:
    """The forced step the reader's copy cannot take, as the author's record claims it
    (8.5: the author, with the initiative, has no legal deployment): the state after it
    and its events; None if the step asks the author no such question, or if what the
    reader knows of the author's cards and blocks already answers it otherwise."""
    kind = current(state)
    if kind is None or kind.name != DEPLOY:
        return None
    if [d["side"] for d in kind.deciders(state)] != [author]:
        return None
    trial, aside = _set_aside(state, author)
    run = carry_on(trial, kc, limit=1)
    if run.steps != 1:
        return None
    return _put_back(run.state, author, aside), run.events


def refutation(
    state: State, kc: Components, challenger: str, action: dict, author: str
) -> tuple[State, list] | None:
    """The reader's own Loyalty Challenge, held for the author (the deployer) to compute,
    as the author's record claims it (8.6.1): refuted by the card it opened, or by none;
    the state after it and its events. None if the action is no challenge of the reader's
    at a challenge, or if it still needs more than the author showed."""
    kind = current(state)
    if challenger == author or action.get("type") != "challenge":
        return None
    if kind is None or kind.name != CHALLENGE:
        return None
    trial, aside = _set_aside(state, author)
    try:
        new, events = handle(trial, kc, challenger, action)
    except Unknown:
        return None
    return _put_back(new, author, aside), events


def _unseen(names: list[str], author: str) -> list[str]:
    return [n for n in names if kn.is_handle(n) and kn.handle_side(n) == author]


def _set_aside(state: State, author: str) -> tuple[State, dict[str, list[str]]]:
    """A copy of the state without the author's cards in hand and blocks in the fight
    that the reader has not seen (handles still in its working copy), and those."""
    trial = clone(state)
    hand = trial["cards"][author]["hand"]
    forces = fight_of(trial)["forces"][author]
    aside = {"hand": _unseen(hand, author), "forces": _unseen(forces, author)}
    trial["cards"][author]["hand"] = [c for c in hand if c not in aside["hand"]]
    fight_of(trial)["forces"][author] = [b for b in forces if b not in aside["forces"]]
    return trial, aside


def _put_back(state: State, author: str, aside: dict[str, list[str]]) -> State:
    """The items set aside back where they were (both steps leave the fight in place);
    lists that hold handles are kept sorted, as every public form keeps them."""
    pile = state["cards"][author]
    pile["hand"] = sorted(pile["hand"] + aside["hand"])
    forces = fight_of(state)["forces"]
    forces[author] = sorted(forces[author] + aside["forces"])
    return state
