"""The protocol every kind of decision implements, so that asking, listing, applying,
carrying on, defaulting, answering by plan and guiding a player all loop over one table
(rules/decisions/__init__.py) instead of switching on the decision in many places.

A guided dialogue (`Kind.guide`) is a generator: it yields `Question`s, receives the
chosen value of each, and returns the finished action. It is pure, so `seki play`, the
tests and a bot can all drive it, and replaying the same answers rebuilds the same action
(which is how the player's undo works).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from ..components import Components
from ..state_types import State

Handler = Callable[[State, Components, str, dict, list], None]
Candidates = Iterator[tuple[dict, str]]  # a plan's answers, each with the plan entry it used


@dataclass(frozen=True)
class Choice:
    """One answer a question offers: an id, a word of the dialogue or a whole action, with
    facts the shell may show beside it (e.g. the movement left)."""

    value: object
    note: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Question:
    """What a guided dialogue asks next. `key` names the question for the shell (it picks
    the wording and how values are named); `pick` is 'one', 'any' (any number, none
    included), 'some' (at least one) or an exact number of distinct choices; `default` is
    the answer taken on a bare Enter; `limit` caps how many 'any' or 'some' may pick;
    `numbers`, where the dialogue keeps them stable, the number each choice is shown and
    typed with (empty: 1 to n)."""

    key: str
    choices: tuple[Choice, ...]
    pick: str | int = "one"
    default: object = None
    limit: int | None = None
    context: Mapping[str, object] = field(default_factory=dict)
    numbers: tuple[int, ...] = ()


# The value sent back for a question is one of its choices' values, or a list of them (as
# `pick` says): its type is the question's, so the dialogues take it as they offered it.
Dialogue = Generator[Question, Any, dict]

Entry = TypeVar("Entry")


class Listing(Sequence[dict], Generic[Entry]):
    """Options written down in a compact form and made into actions when read: a
    movement phase offers a hundred moves or more before each one, and a playout reads
    only the one it draws. `build(entry, index)` makes the entry at `index` into its
    action (the same every time: one entry may stand at several places and make a
    different action at each); the listing holds exactly the options, in order, as a
    list of them would."""

    __slots__ = ("_entries", "_build")

    def __init__(self, entries: Sequence[Entry], build: Callable[[Entry, int], dict]):
        self._entries = entries
        self._build = build

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, i: int) -> dict: ...

    @overload
    def __getitem__(self, i: slice) -> list[dict]: ...

    def __getitem__(self, i: int | slice) -> dict | list[dict]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("option index out of range")
        return self._build(self._entries[i], i)

    def __iter__(self) -> Iterator[dict]:
        return map(self._build, self._entries, range(len(self._entries)))


def one_of_options(state: State, comp: Components, side: str, kind: Kind) -> Dialogue:
    """The plain dialogue: one question listing every legal action, named for its kind
    (the shell words it: the bid, the first player, the combat fought next)."""
    legal = kind.options(state, comp, side)
    answer = yield Question(kind.name, tuple(Choice(a) for a in legal))
    return answer


def never_forced(state: State, comp: Components, events: list) -> bool:
    return False


def shows_nothing(action: dict) -> tuple[str, ...]:
    return ()


def no_plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    return iter(())


@dataclass(frozen=True)
class Kind:
    """One kind of decision.

    - `name`, `step`: the decision and the step of the weekly cycle it belongs to;
    - `rule` / `turn_rule` / `siege_turn_rule`: cited when an action comes at the wrong
      step, or from the side not asked (in a siege, the siege rule);
    - `actions`: the action types that answer it, each with the handler that checks and
      applies it; `fields`: the fields of each action that carry names (rules/notation.py);
    - `deciders(state)`: the pending decisions ({side, decision, ...}) while it is asked;
    - `options(state, comp, side)`: legal actions as a sequence (a list, or a `Listing`
      where there are many): the packet's options;
    - `guide(state, comp, side)`: a dialogue that can build every legal action;
    - `forced(state, comp, events)`: carry the game on where the rules leave no choice,
      True if it did something;
    - `passive(state, comp, side, legal)`: the answer of the `pass` deadline policy;
    - `plan(state, comp, decision, plan)`: the battle plan's answers, best first;
    - `forbidden(state, side)`: raises the refusal of a rule that forbids this kind's
      actions outright now, checked before whose decision it is, so that rule is cited
      rather than the turn order;
    - `shows(action)`: the fields of an action whose items the rules show the opponent as
      it is made (a leader's +1, 7.3.4; blocks mustered under option A, 7.2; a Loyalty
      Challenge's card, 8.6); `sealed`: the fields of a sealed choice, shown once both
      sides have chosen (6.2, 6.3). What a side's copy of a two-party game opens to the
      other follows from these (twoparty/exchange.py).
    """

    name: str
    step: str
    rule: str
    turn_rule: str
    actions: Mapping[str, Handler]
    fields: Mapping[str, Mapping[str, tuple[str, bool]]]
    deciders: Callable[[State], list[dict]]
    options: Callable[[State, Components, str], Sequence[dict]]
    passive: Callable[[State, Components, str, list[dict]], dict]
    siege_turn_rule: str | None = None
    guide: Callable[[State, Components, str], Dialogue] | None = None
    forced: Callable[[State, Components, list], bool] = never_forced
    plan: Callable[[State, Components, dict, dict], Candidates] = no_plan
    forbidden: Callable[[State, str], None] = lambda state, side: None
    shows: Callable[[dict], tuple[str, ...]] = shows_nothing
    sealed: tuple[str, ...] = ()

    def dialogue(self, state: State, comp: Components, side: str) -> Dialogue:
        """The guided dialogue for this decision (the plain list of options by default)."""
        if self.guide is None:
            return one_of_options(state, comp, side, self)
        return self.guide(state, comp, side)
