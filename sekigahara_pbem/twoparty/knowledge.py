"""What one side's copy of a two-party game knows, and how the copies are made.

The public form of a state names every hidden item (a block in a bag, Recruitment Box or
unrevealed on the map; a card in a hand or draw pile) by a handle that says whose item it
is and nothing else: an unbound slot (rules/slots.py) or, for a block placed by the setup
chart, a handle its owner deals in an order only it knows. A side's working copy puts
back its own items and those of the other side it has been shown; the rest stay handles,
and the components answer for a handle only its side (`HiddenBlock`, `HiddenCard`), so any
rule that reads more raises `Unknown`: a step the copy cannot decide is never decided on a
guess.

Every list or mapping that holds a handle is sorted, so the order of handles says nothing
about what they stand for.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeGuard, overload

from ..crypto.commitments import commit
from ..rules import rng
from ..rules.components import Components
from ..rules.slots import SLOT
from ..rules.state_types import State
from ..rules.views import SECRET_PARTS, hidden_items, view
from ..rules.vocab import BAG, Unknown

_SLOT_NAME = re.compile(r"\?[a-z]+-s\d+")  # rules/slots.py's names; dealt handles end -f<n>


def is_handle(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value.startswith(SLOT)


def handle_side(handle: str) -> str:
    return handle[1:].split("-", 1)[0]


@dataclasses.dataclass(frozen=True)
class HiddenBlock:
    """A block seen from a copy that does not know it: whose it is, nothing more."""

    id: str
    side: str

    def __getattr__(self, name: str) -> Any:
        _special(name)
        raise Unknown(f"the {name} of {self.id}")


@dataclasses.dataclass(frozen=True)
class HiddenCard:
    """A card seen from a copy that does not know it: whose deck it is from, nothing more."""

    id: str
    deck: str

    def __getattr__(self, name: str) -> Any:
        _special(name)
        raise Unknown(f"the {name} of {self.id}")


def _special(name: str) -> None:
    """A name Python's own protocols look up and do without (`copy.deepcopy` asks for
    `__deepcopy__`, pickle for `__reduce_ex__`'s helpers) is no unknown fact of the game:
    it is missing, as on any object (AttributeError), so a copy of a side's knowledge can
    be copied or pickled."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)


class _Known(dict):
    """The real components by id; a handle gives a stand-in that knows only its side."""

    def __init__(self, real: dict, make: type) -> None:
        super().__init__(real)
        self._make = make
        # each handle's stand-in, made once (the rules ask a copy's stand-ins thousands of
        # times a record); apart from the real ones, which are all the dict iterates
        self._made: dict[str, Any] = {}

    def __missing__(self, key: object) -> Any:
        if not is_handle(key):
            raise KeyError(key)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._make(key, handle_side(key))
        return made

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or is_handle(key)


def knowing(comp: Components) -> Components:
    """The components as a copy reads them (a handle answers its side only). Made once
    per component set (kept in its memo): the rules keep indexes per set
    (rules/notation.py)."""
    made: Components | None = comp.memo.get(__name__)
    if made is None:
        made = comp.memo[__name__] = dataclasses.replace(
            comp, blocks=_Known(comp.blocks, HiddenBlock), cards=_Known(comp.cards, HiddenCard)
        )
    return made


@dataclasses.dataclass
class Book:
    """One side's knowledge: its secret, the handle of each of its own items it knows
    (`own`, real id -> handle), and the other side's handles it has been shown (`shown`,
    handle -> real id)."""

    side: str
    secret: bytes
    own: dict[str, str] = dataclasses.field(default_factory=dict)
    shown: dict[str, str] = dataclasses.field(default_factory=dict)
    dealt: int = 0

    def salt(self, handle: str) -> bytes:
        return prf(self.secret, b"salt", handle.encode())

    def commitment(self, handle: str) -> str:
        """The public commitment to what the handle stands for."""
        return commit(self.reals()[handle], self.salt(handle))

    def deal(self, real: list[str]) -> list[str]:
        """Handles for own items known from the start (the setup chart's blocks), dealt in
        an order drawn from the secret."""
        fresh = sorted(real, key=lambda r: prf(self.secret, b"deal", r.encode()))
        made = []
        for r in fresh:
            self.own[r] = f"{SLOT}{self.side}-f{self.dealt}"
            self.dealt += 1
            made.append(self.own[r])
        return made

    def show(self, handle: str, real: str) -> None:
        """The other side opened `handle` as `real`. A card comes back under a new handle
        once reshuffled; the handle it had before no longer stands for it."""
        for h in [h for h, r in self.shown.items() if r == real]:
            del self.shown[h]
        self.shown[handle] = real

    def reals(self) -> dict[str, str]:
        out = {h: r for r, h in self.own.items()}
        out.update(self.shown)
        return out


def prf(key: bytes, *parts: bytes) -> bytes:
    """HMAC-SHA256 of the length-framed parts: what a side derives from its secret (salts,
    dealing order, bindings, contributions) is unforeseeable without it."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for p in parts:
        mac.update(len(p).to_bytes(4, "big") + p)
    return mac.digest()


def _strings(value: object, found: set[str]) -> None:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        found.update(value)
        _each(value.values(), found)
    elif isinstance(value, list | tuple):
        _each(value, found)


def _each(values: Iterable, found: set[str]) -> None:
    """`_strings` of each value, a string added where it is: a call each was most of it."""
    for v in values:
        if type(v) is str:
            found.add(v)
        else:
            _strings(v, found)


def names_in(value: object) -> set[str]:
    """Every string a value holds, keys included."""
    found: set[str] = set()
    _strings(value, found)
    return found


def shown_names(state: State, comp: Components, events: Iterable[dict] = ()) -> set[str]:
    """Every name the public view of `state` and the public part of `events` show."""
    found = names_in(view(state, knowing(comp), None))
    for e in events:
        _strings({k: v for k, v in e.items() if k != "private"}, found)
    return found


def hidden_reals(state: State, comp: Components, shown: set[str]) -> set[str]:
    """The real ids (of either side) among the hidden items of `state` (views.hidden_items)
    and in its sealed decisions, but those in `shown`."""
    kc = knowing(comp)
    out: set[str] = set()
    for kind, item, _ in hidden_items(state):
        if kind == "sealed":
            out.update(
                r for r in names_in(state["sealed"][item]) if r in kc.cards or r in kc.blocks
            )
        elif not is_handle(item):
            out.add(item)
    return out - shown


def conceal(
    state: State, comp: Components, book: Book, unopened: Mapping[str, str] | None = None
) -> State:
    """The public form of a working copy: every item in a hidden place as its handle.
    Own items and shown ones keep the handle they had; an item seen by both sides before
    it went to a hidden place without one (a Mōri block, 9.3) stays named. `unopened`
    (real id -> handle) goes under its handles wherever it stands, as the other side
    holds items it has not been shown: in the same walk of the state (a second `replace`
    of the form gives the same, its names being reals too)."""
    shown = shown_names(state, comp)
    hidden = hidden_reals(state, comp, shown)
    names = {r: h for h, r in book.reals().items() if r in hidden}
    names.update(unopened or {})
    # a hidden item without a handle was public: it stays named
    return replace({**state, **dict.fromkeys(SECRET_PARTS, {})}, names)


@overload
def open_in(public: State, comp: Components, opened: dict[str, tuple[str, str]]) -> State: ...


@overload
def open_in(public: None, comp: Components, opened: dict[str, tuple[str, str]]) -> None: ...


def open_in(
    public: State | None, comp: Components, opened: dict[str, tuple[str, str]]
) -> State | None:
    """The public form once handles are opened: their ids where the place is public; a
    handle in a hidden place stays (the side that saw the opening keeps it in its book).
    None (the form a held entry lacks, as a takeback record may claim) comes back as it
    is when nothing is opened."""
    if not opened:
        return public
    shown = {h: real for h, (real, _) in opened.items()}
    return conceal(replace(public, shown), comp, Book("public", b"", shown=shown))


def working(public: State, book: Book) -> State:
    """A side's working copy: the public form with what the side knows put back. It has
    no battle plan: in a two-party game every decision is its side's record."""
    return replace(public, book.reals())


def replace(value: Any, names: dict[str, str]) -> Any:
    """A copy with every name in `names` replaced; a list that holds a handle, before or
    after, is sorted, so its order says nothing of what the handles stand for (and is the
    same whichever side opened them). Mappings come out in key order: both sides' copies
    then iterate alike, as a referee's state does once stored in canonical form."""
    if isinstance(value, str):
        return names.get(value, value)
    return _replace(value, names.get)


def _replace(value: Any, get: Callable[[str, str], str]) -> Any:
    """`replace`, with a state's strings looked up where they are (a call each was most of
    its time) and a mapping's keys sorted alone. Two keys made one (only a hostile form
    names an item both by its id and by its handle) keep the later value, never comparing
    the two: the record is then refused for the form it makes (twoparty/changes.plain
    refuses a list that a sort could not order)."""
    if isinstance(value, dict):
        out = {
            get(k, k): get(v, v) if type(v) is str else _replace(v, get) for k, v in value.items()
        }
        return {k: out[k] for k in sorted(out)}
    if isinstance(value, list):
        items = [get(v, v) if type(v) is str else _replace(v, get) for v in value]
        return sorted(items) if _any_handle(value) or _any_handle(items) else items
    return value


def _any_handle(values: list) -> bool:
    """`is_handle` of any of them, written out: replace asks it of every list of a state."""
    return any(isinstance(v, str) and v.startswith(SLOT) for v in values)


def in_piles(state: State) -> set[str]:
    """The slots still in a draw pile or a bag: no one has drawn them yet."""
    piled = {b for b, w in state["blocks"].items() if is_handle(b) and w == BAG}
    for pile in state["cards"].values():
        piled.update(c for c in pile["deck"] if is_handle(c))
    return piled


def unbound_out(state: State, side: str) -> list[str]:
    """`side`'s slots that have left its pile or bag: drawn, not yet bound."""
    out = [
        b
        for b, w in state["blocks"].items()
        if is_handle(b) and handle_side(b) == side and w != BAG
    ]
    pile = state["cards"][side]
    out += [c for c in pile["hand"] + pile["discard"] if is_handle(c) and handle_side(c) == side]
    return sorted(h for h in out if _SLOT_NAME.fullmatch(h))


def bind(state: State, comp: Components, book: Book, contribution: bytes) -> list[str]:
    """Bind the side's drawn slots in its working copy (in place): each becomes a card
    or block picked from those not yet in play, by randomness from the side's secret and
    the other side's contribution, which neither could steer. Returns the handles bound."""
    side = book.side
    todo = unbound_out(state, side)
    if not todo:
        return []
    present = names_in(state)
    pool_cards = sorted(c for c in comp.deck(side) if c not in present)
    pool_blocks = sorted(b for b in comp.side_blocks(side) if b not in present)
    names = {}
    for h in todo:
        pool = pool_blocks if h in state["blocks"] else pool_cards
        gen = rng.new(prf(book.secret, b"bind", contribution, h.encode()).hex())
        real = pool.pop(rng.below(gen, len(pool)))
        names[h] = real
        book.own[real] = h
    state.update(replace(state, names))
    return todo
