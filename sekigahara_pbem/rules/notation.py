"""Friendly names in orders: players write locations, blocks, disks and cards the way they
know them (`Kyōto`, `KYOTO`, `Ukita 2a`, `ukita double`) and the handlers see ids.

`normalise` is a pure function of the state, the components, the acting side and the
action, so the referee, `seki turn check` (on its shadow state) and `seki verify`'s replay
all read an order the same way. Only fields that carry names are read; a field of the wrong
shape is left as it is for the handler to report, and so is a card name like no card at
all (the handlers refuse it under their rule). An id is always itself, so a canonical
action comes back unchanged. Suggestions on a typo come from the public component lists;
a card described by clan and kind is looked for in the acting side's own hand only
(docs/rulings.md, "Friendly names").
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .components import Components
from .decisions import ACTION_FIELDS
from .fields import MAX_LIST
from .state_types import State
from .vocab import LEVELS, N_, SIDES, Malformed, Phrase

SEPARATORS = re.compile(r"[\s_\-]+")
CUTOFF = 0.6  # difflib's own default for a close match
CARD_KINDS = {"plain": "plain", "swords": "swords", "sword": "swords", "double": "double"}
KIND_WORDS = {"plain": N_("plain"), "swords": N_("swords"), "double": N_("double")}  # for readers
LOYALTY_WORDS = ("loyalty", "loyalty-challenge", "challenge")
WORDS = {"side": SIDES, "level": tuple(LEVELS), "option": ("A", "B")}  # not components


def fold(text: str) -> str:
    """Case, accents and separators do not matter: `Kyōto`, `KYOTO` and `kyoto` are one
    name, and so are `Ukita 2a`, `ukita_2a` and `ukita-2a`."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return SEPARATORS.sub("-", plain.casefold()).strip("-")


FOLDED_WORDS = {kind: {fold(w): w for w in words} for kind, words in WORDS.items()}

# The name-carrying fields of a move's groups (each kind of decision names its own fields).
GROUP_FIELDS = {
    "blocks": ("block", True),
    "path": ("location", True),
    "force_march": ("card", False),
}


def _shown(value: str) -> str:
    """The player's text in a one-line message."""
    flat = " ".join(value.split())
    return flat if len(flat) <= 40 else flat[:40] + "…"


def _either(names: list[str]) -> Phrase | str:
    if len(names) == 1:
        return names[0]
    return Phrase(N_("{names} or {last}"), names=", ".join(names[:-1]), last=names[-1])


def _suggest(value: str, keys: dict[str, tuple[str, ...]]) -> Phrase | str:
    """The closest spellings (all those equally close, up to three), as difflib rates them."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(fold(value))
    scores: dict[str, float] = {}
    for key, names in keys.items():
        matcher.set_seq1(key)
        if matcher.real_quick_ratio() < CUTOFF or matcher.quick_ratio() < CUTOFF:
            continue
        score = matcher.ratio()
        if score >= CUTOFF:
            for name in names:
                scores[name] = max(scores.get(name, 0.0), score)
    if not scores:
        return ""
    best = max(scores.values())
    closest = sorted(n for n, score in scores.items() if score == best)[:3]
    return Phrase(N_(" — did you mean {names}?"), names=_either(closest))


def _keys(pairs: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Folded spelling -> the ids it may mean (more than one: ambiguous)."""
    out: dict[str, tuple[str, ...]] = {}
    for spelling, ident in pairs:
        key = fold(spelling)
        if ident not in out.get(key, ()):
            out[key] = out.get(key, ()) + (ident,)
    return out


@dataclass(frozen=True)
class Names:
    """One kind of thing orders name: its ids, and the ids each folded spelling may mean."""

    what: str  # its name in refusals, marked with N_
    ids: frozenset[str]
    keys: dict[str, tuple[str, ...]]

    def find(self, value: str, field: str) -> str | None:
        """The id `value` means, None if it means none; ambiguous spellings are refused."""
        if value in self.ids:
            return value
        found = self.keys.get(fold(value), ())
        if len(found) > 1:
            raise Malformed(
                field,
                N_("'{value}' is ambiguous: the {what} {names}; write the id"),
                value=_shown(value),
                what=Phrase(self.what),
                names=_either(list(found)),
            )
        return found[0] if found else None

    def resolve(self, value: str, field: str) -> str:
        found = self.find(value, field)
        if found is None:
            raise Malformed(
                field,
                N_("unknown {what} '{value}'{hint}"),
                what=Phrase(self.what),
                value=_shown(value),
                hint=_suggest(value, self.keys),
            )
        return found


@dataclass(frozen=True)
class Index:
    location: Names
    block: Names
    unit: Names
    card: Names
    clans: dict[str, str]  # folded clan id or name -> clan id
    card_hints: dict[str, dict[str, tuple[str, ...]]]  # side -> suggestions for a card


def _build(comp: Components) -> Index:
    locs = [(i, i) for i in comp.locations] + [(x.name, x.id) for x in comp.locations.values()]
    disks = [(i, i) for i in comp.disks] + [(d.name, d.id) for d in comp.disks.values()]
    blocks = [(i, i) for i in comp.blocks]
    clans = {fold(c): c for c in comp.clans} | {fold(n): c for c, n in comp.clan_names.items()}
    hints: dict[str, dict[str, tuple[str, ...]]] = {}
    for side in SIDES:
        phrases = {"loyalty"}
        for c in comp.deck(side):
            card = comp.cards[c]
            if card.clan is not None:
                phrases.add(card.clan if card.kind == "plain" else f"{card.clan} {card.kind}")
        hints[side] = _keys([(c, c) for c in comp.deck(side)] + [(p, p) for p in phrases])
    return Index(
        location=Names(N_("location"), frozenset(comp.locations), _keys(locs)),
        block=Names(N_("block"), frozenset(comp.blocks), _keys(blocks)),
        unit=Names(
            N_("block or disk"),
            frozenset(comp.blocks) | frozenset(comp.disks),
            _keys(blocks + disks),
        ),
        card=Names(N_("card"), frozenset(comp.cards), _keys((c, c) for c in comp.cards)),
        clans=clans,
        card_hints=hints,
    )


def index(comp: Components) -> Index:
    """Built once per component set (kept in its memo)."""
    found: Index | None = comp.memo.get(__name__)
    if found is None:
        found = comp.memo[__name__] = _build(comp)
    return found


def normalise(state: State, comp: Components, side: str, action: dict) -> dict:
    """The action with every name it carries replaced by the id it means (a new dict; the
    action is not changed). Raises Malformed for a name that means nothing or too much."""
    out = dict(action)
    kind = action.get("type")
    if not isinstance(kind, str):
        return out
    fields = ACTION_FIELDS.get(kind)
    if fields is None:
        return out
    reader = _Reader(state, comp, side, kind)
    reader.fields(out, fields, "")
    reader.resolve_hand()
    return out


class _Reader:
    """Reads one action. Cards named by id are read first, so that a card described by
    clan and kind is never one the same action names by id."""

    def __init__(self, state: State, comp: Components, side: str, kind: str):
        self.state, self.comp, self.side, self.kind = state, comp, side, kind
        self.index = index(comp)
        self.named: set[str] = set()
        # (container, key, value, field): a key of a mapping or an index of a list
        self.described: list[tuple[dict | list, Any, str, str]] = []

    def fields(self, container: dict, spec: Mapping[str, tuple[str, bool]], prefix: str) -> None:
        for key, (kind, many) in spec.items():
            value, field = container.get(key), prefix + key
            if not many:
                self.value(kind, value, field, container, key)
            elif isinstance(value, list) and len(value) <= MAX_LIST:
                items = container[key] = list(value)
                for i, item in enumerate(items):
                    if kind != "group":
                        self.value(kind, item, field, items, i)
                    elif isinstance(item, dict):
                        group = items[i] = dict(item)
                        self.fields(group, GROUP_FIELDS, f"{field}[{i}].")

    def value(self, kind: str, value: object, field: str, container, key) -> None:
        if not isinstance(value, str):
            return  # missing or of the wrong shape: the handler says so
        if kind in WORDS:
            if value not in WORDS[kind]:
                container[key] = FOLDED_WORDS[kind].get(fold(value), value)
        elif kind != "card":
            container[key] = getattr(self.index, kind).resolve(value, field)
        else:
            card = self.index.card.find(value, field)
            if card is None:
                self.described.append((container, key, value, field))
            else:
                self.named.add(card)
                container[key] = card

    def resolve_hand(self) -> None:
        """Cards described by clan and kind: the matching card of the side's own hand with
        the lowest bid number (then the first by id: on the printed decks such cards are
        identical), each card at most once per action (docs/rulings.md)."""
        if not self.described:
            return
        cards = self.comp.cards
        own = self.state["cards"].get(self.side, {}).get("hand", [])
        hand = sorted(own, key=lambda c: (cards[c].bid, c))
        taken = set(self.named)
        for container, key, value, field in self.described:
            described = self._description(value)
            if described is None:
                hint = _suggest(value, self.index.card_hints.get(self.side, {}))
                if hint:
                    raise Malformed(
                        field, N_("unknown {what} '{value}'{hint}"), what=Phrase(N_("card")),
                        value=_shown(value), hint=hint,
                    )  # fmt: skip
                continue  # nothing like it: the handler refuses it under its own rule
            clan, kind = described
            fits = [c for c in hand if cards[c].clan == clan and cards[c].kind == kind]
            free = [c for c in fits if c not in taken]
            what = self._what(clan, kind)
            if not free:
                held = ", ".join(sorted(hand)) or Phrase(N_("nothing"))
                message = (
                    N_("no other {what} in your hand (you hold: {held})")
                    if fits
                    else N_("no {what} in your hand (you hold: {held})")
                )
                raise Malformed(field, message, what=what, held=held)
            if self.kind == "bid" and len({cards[c].bid for c in free}) > 1:
                choices = [f"{c} (bid {cards[c].bid})" for c in free]
                raise Malformed(
                    field,
                    N_(
                        "'{value}' could be {cards}: "
                        "a bid is decided by its number, so name the card"
                    ),
                    value=_shown(value),
                    cards=_either(choices),
                )
            container[key] = free[0]
            taken.add(free[0])

    def _description(self, value: str) -> tuple[str | None, str] | None:
        """(clan, kind) of a card written as `ukita double`, `ukita` or `loyalty`."""
        key = fold(value)
        if key in LOYALTY_WORDS:
            return None, "loyalty"
        clans = self.index.clans
        if key in clans:
            return clans[key], "plain"
        head, _, last = key.rpartition("-")
        if last in CARD_KINDS and head in clans:
            return clans[head], CARD_KINDS[last]
        return None

    def _what(self, clan: str | None, kind: str) -> Phrase:
        if clan is None:
            return Phrase(N_("Loyalty Challenge card"))
        kind_words = Phrase(KIND_WORDS[kind]) if kind in KIND_WORDS else kind
        return Phrase(N_("{clan} {kind} card"), clan=self.comp.clan_names[clan], kind=kind_words)
