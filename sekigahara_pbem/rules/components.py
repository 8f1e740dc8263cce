"""The game's components (board, blocks, disks, cards) built from plain data with checks.

The default set is the printed game's (docs/components.md says which facts are printed and
the one part that is reconstructed); a game may load another set, so every manifest goes
through `build_components`, which reports the first problem with the path of the offending
field.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..refusal import quoted, side_words
from .component_schema import (
    MAX_COORDINATE,
    MAX_LIST,
    At,
    ComponentError,
    flag,
    ident,
    integer,
    listed,
    mapping,
    name,
    one_of,
    pair,
    required,
    symbol,
    typed,
)
from .vocab import ISHIDA, LAST_WEEK, N_, OFF_MAP, SIDES, STARTING_HAND, TOKUGAWA, Phrase

__all__ = ["ComponentError", "Components", "build_components"]

CASTLE_COLOURS = {"gold": ISHIDA, "black": TOKUGAWA}
CARD_KINDS = ("plain", "swords", "double", "loyalty")
ABILITIES = ("gun", "cavalry")


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    pos: tuple[int, int]
    castle: str | None = None  # side whose colour the castle has (4.3), or None
    resource: bool = False
    capital: str | None = None  # side whose colour frames the capital (4.5)
    recruit: tuple[str, ...] = ()  # clans whose mon marks a recruitment location (7.2)
    setup_symbol: str | None = None
    setup_count: int | None = None  # times the symbol is printed there (5.2.1); None:
    # as many as blocks carry it (the first board format)
    random_blocks: tuple[str, int] | None = None  # (side, count) drawn at setup (5.2.2)


@dataclass(frozen=True)
class Block:
    id: str
    side: str
    clan: str
    mon: int
    ability: str | None = None
    leader: int = 0  # nobori dots: 1 clan leader, 3 protagonist (3.2)
    any_card: bool = False  # Ishida and Ii deploy with any card (8.2.2, 9.4, 9.5)
    setup: str | None = None
    name: str | None = None  # a named block's own name (the protagonists, Ii Naomasa)


@dataclass(frozen=True)
class Disk:
    id: str
    name: str
    side: str
    location: str
    instant_loss: bool = False  # Hideyori: captured means Tokugawa wins (2.1, 9.1)


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    kind: str
    bid: int
    clan: str | None = None


@dataclass(frozen=True)
class Components:
    name: str
    locations: dict[str, Location]
    roads: dict[frozenset, bool]  # {a, b} -> is a highway
    adjacent: dict[str, tuple[str, ...]]
    clans: dict[str, str]  # clan -> side
    clan_names: dict[str, str]
    blocks: dict[str, Block]
    disks: dict[str, Disk]
    cards: dict[str, Card]
    mori_box_symbol: str | None
    mori_entry: str | None
    recruitment_track: dict[int, int] = field(default_factory=dict)
    first_reinforcements: dict[str, int] = field(default_factory=dict)  # 5.2.3, per side
    bid_tie: str | None = None  # the side that wins a tied bid, if the decks can tie (6.3)
    size: tuple[int, int] | None = None  # the board picture's width and height, for pos

    def side_blocks(self, side: str) -> list[str]:
        return [b.id for b in self.blocks.values() if b.side == side]

    @cached_property
    def unit_side(self) -> dict[str, str]:
        """Every block's and disk's side by id (ids are distinct across both): the
        engine's scans over the state ask it for every piece. A plain dict where the
        blocks are one (the interpreter looks up an exact dict fastest); else a `_Sides`."""
        if type(self.blocks) is not dict:
            return _Sides(self)
        sides = {b.id: b.side for b in self.blocks.values()}
        sides.update((d.id, d.side) for d in self.disks.values())
        return sides

    @cached_property
    def memo(self) -> dict[str, Any]:
        """What the modules that read a component set work out from it once, each under
        its own module's name (rules/notation.py's index of names, the recruitment
        locations, the movement tries, a two-party copy's components): kept on the set,
        so it lives and dies with it (a set is never changed, `dataclasses.replace` makes
        a new one with a memo of its own)."""
        return {}

    def deck(self, side: str) -> list[str]:
        return [c.id for c in self.cards.values() if c.deck == side]

    def road(self, a: str, b: str) -> bool | None:
        """True for a highway, False for a plain road, None if not connected."""
        return self.roads.get(frozenset((a, b)))

    def protagonist(self, side: str) -> str | None:
        """The side's three-dot leader, whose death is an instant loss (2.1)."""
        for b in self.blocks.values():
            if b.side == side and b.leader == 3:
                return b.id
        return None


class _Sides(dict):
    """`Components.unit_side`: the sides written out once; an id not among them is
    asked of `blocks`, which may know more ids than it lists (a two-party copy's
    stand-ins for hidden blocks, twoparty/knowledge.py)."""

    def __init__(self, comp: Components):
        super().__init__((b.id, b.side) for b in comp.blocks.values())
        self.update((d.id, d.side) for d in comp.disks.values())
        self._blocks = comp.blocks
        self._asked: dict[str, str] = {}  # ids asked of `blocks`, kept apart: not iterated

    def __missing__(self, key: str) -> str:
        side = self._asked.get(key)
        if side is None:  # a two-party copy asks each stand-in thousands of times a record
            side = self._asked[key] = self._blocks[key].side
        return side


BOARD_FORMATS = ("sekigahara-board/1", "sekigahara-board/2")
BLOCKS_FORMATS = ("sekigahara-blocks/1",)
CARDS_FORMATS = ("sekigahara-cards/1", "sekigahara-cards/2")
COLOURS = (*CASTLE_COLOURS, *SIDES)
RESERVED_IDS = frozenset((*SIDES, *OFF_MAP))  # what orders and the state name besides ids
MAX_CLANS = 64
MAX_DISKS = 16
MAX_ROADS = 2 * MAX_LIST
MAX_BID = 99
MIN_DECK = STARTING_HAND  # 5.1 deals each side five cards from its deck

_BOARD = frozenset(("format", "name", "size", "locations", "roads", "boxes", "recruitment_track"))
_LOCATION = frozenset(("id", "name", "pos", "castle", "resource", "capital", "recruit", "setup",
                       "setup_symbol", "random_blocks"))  # fmt: skip
_SETUP = frozenset(("symbol", "count"))
_RANDOM = frozenset(("side", "count"))
_BOXES = frozenset(("mori", "recruitment"))
_MORI = frozenset(("name", "side", "setup", "setup_symbol", "enters_at"))
_BLOCKS = frozenset(("format", "clans", "blocks", "disks"))
_CLAN = frozenset(("id", "name", "side", "daimyo"))
_BLOCK = frozenset(("id", "clan", "name", "mon", "ability", "leader", "any_card", "setup"))
_DISK = frozenset(("id", "name", "side", "location", "instant_loss"))
_CARDS = frozenset(("format", "cards", "bid_tie"))
_CARD = frozenset(("id", "deck", "kind", "clan", "bid"))


def build_components(board: Any, blocks: Any, cards: Any) -> Components:
    """Check three manifests, each against the schema (rules/component_schema.py), then
    against each other and the rulebook's fixed facts; the first problem is refused with
    its file and field."""
    ids = _Ids()
    clans, clan_names, block_map, disks = _build_blocks(blocks, ids)
    b = _build_board(board, clans, ids)
    card_map, bid_tie = _build_cards(cards, clans, ids)
    comp = Components(
        name=b.name,
        locations=b.locations,
        roads=b.roads,
        adjacent=b.adjacent,
        clans=clans,
        clan_names=clan_names,
        blocks=block_map,
        disks={d.id: d for d in disks.values()},
        cards=card_map,
        mori_box_symbol=b.mori_symbol,
        mori_entry=b.mori_entry,
        recruitment_track=b.track,
        first_reinforcements=b.first_reinforcements,
        bid_tie=bid_tie,
        size=b.size,
    )
    _cross_check(comp, b.mori_count, disks)
    return comp


class _Ids:
    """Every id of a location, block, disk or card, with where it is written: orders name
    them by id alone, so no two may share one, nor may any be a word the state uses for a
    side or an off-map place (`bag`, `mori`)."""

    def __init__(self) -> None:
        self.seen: dict[str, At] = {}

    def add(self, value: Any, at: At) -> str:
        found = ident(value, at)
        if found in RESERVED_IDS:
            at.fail(N_("{value} is a word the game uses itself"), value=quoted(found))
        if found in self.seen:
            at.fail(N_("{value} is already the id at {other}"), value=quoted(found),
                    other=str(self.seen[found]))  # fmt: skip
        self.seen[found] = at
        return found


def _format(doc: dict, at: At, known: tuple[str, ...]) -> None:
    """The manifest's format tag: one this version reads."""
    one_of(required(doc, "format", at), at.key("format"), known)


def _side(value: Any, at: At) -> str:
    """A side named by its colour (gold, black) or its name."""
    found = one_of(value, at, COLOURS)
    return CASTLE_COLOURS.get(found, found)


def _optional(doc: dict, key: str, at: At, read: Any, default: Any = None) -> Any:
    """`read(value, at)` of the value under `key`, or `default` if it is absent or null."""
    if doc.get(key) is None:
        return default
    return read(doc[key], at.key(key))


def _build_blocks(doc: Any, ids: _Ids) -> tuple[dict, dict, dict, dict[At, Disk]]:
    at = At("blocks.yaml")
    mapping(doc, at, _BLOCKS)
    _format(doc, at, BLOCKS_FORMATS)
    clans: dict[str, str] = {}
    names: dict[str, str] = {}
    for i, c in enumerate(listed(required(doc, "clans", at), at.key("clans"), MAX_CLANS, 1)):
        w = at.key("clans").item(i)
        mapping(c, w, _CLAN)
        cid = ident(required(c, "id", w), w.key("id"))
        if cid in clans:
            w.key("id").fail(N_("{value} is already a clan"), value=quoted(cid))
        clans[cid] = _side(required(c, "side", w), w.key("side"))
        names[cid] = _optional(c, "name", w, name, cid)
        _optional(c, "daimyo", w, name)
    blocks: dict[str, Block] = {}
    for i, b in enumerate(listed(required(doc, "blocks", at), at.key("blocks"), least=2)):
        block = _block(b, at.key("blocks").item(i), clans, ids)
        blocks[block.id] = block
    disks: dict[At, Disk] = {}
    for i, d in enumerate(_optional(doc, "disks", at, _disk_list, [])):
        w = at.key("disks").item(i)
        mapping(d, w, _DISK)
        did = ids.add(required(d, "id", w), w.key("id"))
        disks[w] = Disk(
            id=did,
            name=_optional(d, "name", w, name, did),
            side=_side(required(d, "side", w), w.key("side")),
            location=ident(required(d, "location", w), w.key("location")),
            instant_loss=_optional(d, "instant_loss", w, flag, False),
        )
    return clans, names, blocks, disks


def _disk_list(value: Any, at: At) -> list:
    return listed(value, at, MAX_DISKS)


def _block(b: Any, w: At, clans: dict[str, str], ids: _Ids) -> Block:
    mapping(b, w, _BLOCK)
    bid = ids.add(required(b, "id", w), w.key("id"))
    clan = ident(required(b, "clan", w), w.key("clan"))
    if clan not in clans:
        w.key("clan").fail(N_("unknown clan {value}"), value=quoted(clan))
    leader = _optional(b, "leader", w, lambda v, a: integer(v, a, 0, 3), 0)
    if leader == 2:
        w.key("leader").fail(N_("a nobori has 1 or 3 dots (3.2), got {value}"), value=leader)
    return Block(
        id=bid,
        side=clans[clan],
        clan=clan,
        mon=integer(required(b, "mon", w), w.key("mon"), 1, 4),  # 3.2
        ability=_optional(b, "ability", w, lambda v, a: one_of(v, a, ABILITIES)),
        leader=leader,
        any_card=_optional(b, "any_card", w, flag, False),
        setup=_optional(b, "setup", w, symbol),
        name=_optional(b, "name", w, name),
    )


@dataclass
class _Board:
    """What `_build_board` read, before the cross-checks."""

    name: str
    locations: dict[str, Location]
    roads: dict[frozenset, bool]
    adjacent: dict[str, tuple[str, ...]]
    mori_symbol: str | None
    mori_count: int | None
    mori_entry: str | None
    track: dict[int, int]
    first_reinforcements: dict[str, int]
    size: tuple[int, int] | None


def _setup(d: dict, at: At) -> tuple[str | None, int | None]:
    """A location's or box's setup symbol and how many times it is printed (5.2.1). The
    first board format named the symbol alone (`setup_symbol`), its count being however
    many blocks carry it: an archive made with such a set still loads."""
    if d.get("setup") is not None and d.get("setup_symbol") is not None:
        at.key("setup_symbol").fail(N_("give setup or setup_symbol, not both"))
    if d.get("setup") is None:
        return _optional(d, "setup_symbol", at, symbol), None
    w = at.key("setup")
    setup = mapping(d["setup"], w, _SETUP)
    return (
        symbol(required(setup, "symbol", w), w.key("symbol")),
        integer(required(setup, "count", w), w.key("count"), 1, MAX_LIST),
    )


def _build_board(doc: Any, clans: dict[str, str], ids: _Ids) -> _Board:
    at = At("board.yaml")
    mapping(doc, at, _BOARD)
    _format(doc, at, BOARD_FORMATS)
    size = _optional(doc, "size", at, lambda v, a: pair(v, a, 1, MAX_COORDINATE))
    locations: dict[str, Location] = {}
    raw = listed(required(doc, "locations", at), at.key("locations"), least=1)
    for i, loc in enumerate(raw):
        location = _location(loc, at.key("locations").item(i), clans, ids, size)
        locations[location.id] = location
    roads, adjacent = _build_roads(doc, at, locations)
    _check_connected(locations, adjacent, at)
    boxes = _optional(doc, "boxes", at, lambda v, a: mapping(v, a, _BOXES), {})
    mori_at = at.key("boxes").key("mori")
    box = _optional(boxes, "mori", at.key("boxes"), lambda v, a: mapping(v, a, _MORI), {})
    _optional(box, "name", mori_at, name)
    _optional(box, "side", mori_at, _side)
    entry = _optional(box, "enters_at", mori_at, _known(locations, N_("location")))
    mori_symbol, mori_count = _setup(box, mori_at)
    if mori_symbol is not None and entry is None:
        mori_at.key("enters_at").fail(N_("missing: the box's blocks enter the map there (9.3)"))
    return _Board(
        name=_optional(doc, "name", at, name, "board"),
        locations=locations,
        roads=roads,
        adjacent={k: tuple(sorted(v)) for k, v in adjacent.items()},
        mori_symbol=mori_symbol,
        mori_count=mori_count,
        mori_entry=entry,
        track=_track(doc, at),
        first_reinforcements=_first_reinforcements(boxes, at.key("boxes")),
        size=size,
    )


def _known(ids: dict, what: str) -> Any:
    """A reader of an id that must be one of `ids` (`what` names their kind)."""

    def read(value: Any, at: At) -> str:
        found = ident(value, at)
        if found not in ids:
            at.fail(N_("unknown {what} {value}"), what=Phrase(what), value=quoted(found))
        return found

    return read


def _location(
    loc: Any, w: At, clans: dict[str, str], ids: _Ids, size: tuple[int, int] | None
) -> Location:
    mapping(loc, w, _LOCATION)
    lid = ids.add(required(loc, "id", w), w.key("id"))
    limit = size or (MAX_COORDINATE, MAX_COORDINATE)
    pos = required(loc, "pos", w)
    listed(pos, w.key("pos"), 2, 2)
    x, y = (integer(p, w.key("pos").item(i), 0, limit[i]) for i, p in enumerate(pos))
    recruit = _optional(loc, "recruit", w, lambda v, a: listed(v, a, len(clans)), [])
    for i, c in enumerate(recruit):
        _known(clans, N_("clan"))(c, w.key("recruit").item(i))
    if len(set(recruit)) != len(recruit):
        w.key("recruit").fail(N_("a clan is named twice"))
    resource = _optional(loc, "resource", w, flag, False)
    capital = _optional(loc, "capital", w, _side)
    if capital is not None and not resource:
        w.key("resource").fail(N_("capitals are resource locations (4.5)"))
    setup_symbol, setup_count = _setup(loc, w)
    return Location(
        id=lid,
        name=_optional(loc, "name", w, name, lid),
        pos=(x, y),
        castle=_optional(loc, "castle", w, _side),
        resource=resource,
        capital=capital,
        recruit=tuple(recruit),
        setup_symbol=setup_symbol,
        setup_count=setup_count,
        random_blocks=_optional(loc, "random_blocks", w, _random_blocks),
    )


def _random_blocks(value: Any, at: At) -> tuple[str, int]:
    """5.2.2: a side's +1, +2 or +3 drawn from its bag at setup."""
    mapping(value, at, _RANDOM)
    return (
        _side(required(value, "side", at), at.key("side")),
        integer(required(value, "count", at), at.key("count"), 1, 3),
    )


def _track(doc: dict, at: At) -> dict[int, int]:
    """6.2: the blocks each week draws; a week not listed draws none."""
    w = at.key("recruitment_track")
    track = _optional(doc, "recruitment_track", at, lambda v, a: typed(v, a, dict), {})
    for week, n in track.items():
        integer(week, w, 1, LAST_WEEK)
        integer(n, w.key(week), 0, MAX_LIST)
    return dict(track)


def _first_reinforcements(boxes: dict, at: At) -> dict[str, int]:
    """5.2.3: four blocks each unless the board prints otherwise."""
    w = at.key("recruitment")
    recruitment = _optional(boxes, "recruitment", at, lambda v, a: mapping(v, a, frozenset(SIDES)),
                            {})  # fmt: skip
    return {s: _optional(recruitment, s, w, lambda v, a: integer(v, a, 0, MAX_LIST), 4)
            for s in SIDES}  # fmt: skip


def _build_roads(
    doc: dict, at: At, locations: dict
) -> tuple[dict[frozenset, bool], dict[str, list]]:
    roads: dict[frozenset, bool] = {}
    adjacent: dict[str, list[str]] = {lid: [] for lid in locations}
    known = _known(locations, N_("location"))
    for i, r in enumerate(listed(required(doc, "roads", at), at.key("roads"), MAX_ROADS)):
        w = at.key("roads").item(i)
        listed(r, w, 3, 3)
        a, b = known(r[0], w.item(0)), known(r[1], w.item(1))
        if a == b:
            w.fail(N_("a road joins two different locations"))
        highway = one_of(r[2], w.item(2), ("highway", "road")) == "highway"
        key = frozenset((a, b))
        if key in roads:
            w.fail(N_("the road {a}-{b} is listed twice"), a=a, b=b)
        roads[key] = highway
        adjacent[a].append(b)
        adjacent[b].append(a)
    return roads, adjacent


def _check_connected(locations: dict, adjacent: dict, at: At) -> None:
    """Every location can be reached from every other (the printed map is one piece)."""
    start = next(iter(locations))
    seen = {start}
    todo = deque([start])
    while todo:
        for n in adjacent[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    missing = sorted(set(locations) - seen)
    if missing:
        at.key("roads").fail(N_("no road leads to {locations}"), locations=", ".join(missing[:6]))


def _build_cards(doc: Any, clans: dict[str, str], ids: _Ids) -> tuple[dict[str, Card], str | None]:
    """The decks, and the side that wins a tied bid: bid numbers may repeat within a deck
    (the printed cards share one number a kind), but a number in both decks could tie a
    bid (6.3), which the rulebook does not settle, so such a set must name a tie rule."""
    at = At("cards.yaml")
    mapping(doc, at, _CARDS)
    _format(doc, at, CARDS_FORMATS)
    cards: dict[str, Card] = {}
    bids: dict[int, dict[str, str]] = {}
    for i, c in enumerate(listed(required(doc, "cards", at), at.key("cards"), least=1)):
        card = _card(c, at.key("cards").item(i), clans, ids)
        bids.setdefault(card.bid, {}).setdefault(card.deck, card.id)
        cards[card.id] = card
    tie = _optional(doc, "bid_tie", at, _side)
    shared = sorted(n for n, decks in bids.items() if len(decks) > 1)
    if shared and tie is None:
        n = shared[0]
        at.key("bid_tie").fail(
            N_("bid {bid} is on both decks ({ishida}, {tokugawa}), so a bid could tie (6.3): "
               "name the side that wins a tie (bid_tie: ishida|tokugawa)"),
            bid=n,
            ishida=bids[n][ISHIDA],
            tokugawa=bids[n][TOKUGAWA],
        )  # fmt: skip
    return cards, tie


def _card(c: Any, w: At, clans: dict[str, str], ids: _Ids) -> Card:
    mapping(c, w, _CARD)
    cid = ids.add(required(c, "id", w), w.key("id"))
    deck = _side(required(c, "deck", w), w.key("deck"))
    kind = one_of(required(c, "kind", w), w.key("kind"), CARD_KINDS)
    clan = _optional(c, "clan", w, _known(clans, N_("clan")))
    if kind == "loyalty" and clan is not None:
        w.key("clan").fail(N_("a Loyalty Challenge card shows no mon (8.6)"))
    if kind != "loyalty" and clan is None:
        w.key("clan").fail(N_("missing: every card but a Loyalty Challenge shows a mon"))
    if clan is not None and clans[clan] != deck:
        w.key("clan").fail(N_("clan {clan} is not of the {deck} deck"), clan=clan,
                           deck=side_words(deck))  # fmt: skip
    bid = integer(required(c, "bid", w), w.key("bid"), 1, MAX_BID)
    return Card(id=cid, deck=deck, kind=kind, bid=bid, clan=clan)


def _cross_check(comp: Components, mori_count: int | None, disks: dict[At, Disk]) -> None:
    for side in SIDES:
        protagonists = [b.id for b in comp.blocks.values() if b.side == side and b.leader == 3]
        if len(protagonists) != 1:
            At("blocks.yaml", "blocks").fail(
                N_("{side} needs exactly one three-dot leader (3.2, 2.1), found {count}"),
                side=side_words(side),
                count=len(protagonists),
            )
    _check_decks(comp)
    for where, d in disks.items():
        loc = comp.locations.get(d.location)
        if loc is None:
            where.key("location").fail(N_("unknown location {value}"), value=quoted(d.location))
        if loc.castle is None:
            where.key("location").fail(N_("a disk is attached to a castle (3.4)"))
    _check_setup(comp, mori_count)


def _check_decks(comp: Components) -> None:
    """Each deck holds at least the starting hand (5.1 deals five cards from it). The
    engine would deal what there is (rules/cards.py draws fewer from an empty pile), but a
    side that is not dealt its hand does not play this game's rules."""
    for side in SIDES:
        count = len(comp.deck(side))
        if count < MIN_DECK:
            At("cards.yaml", "cards").fail(
                N_("the {side} deck has {count} cards: a deck holds at least {least} (5.1)"),
                side=side_words(side),
                count=count,
                least=MIN_DECK,
            )


def _check_setup(comp: Components, mori_count: int | None) -> None:
    """5.2.1: one block for every symbol printed, each symbol printed in one place; 5.2.2
    and 5.2.3: each bag holds the blocks the setup draws from it."""
    printed: dict[str, tuple[At, int | None]] = {}
    places = [(At("board.yaml", f"locations[{i}].setup"), loc.setup_symbol, loc.setup_count)
              for i, loc in enumerate(comp.locations.values()) if loc.setup_symbol]  # fmt: skip
    if comp.mori_box_symbol:
        places.append((At("board.yaml", "boxes.mori.setup"), comp.mori_box_symbol, mori_count))
    for where, printed_symbol, count in places:
        if printed_symbol in printed:
            where.fail(N_("symbol {symbol} is also printed at {other} (5.2.1)"),
                       symbol=printed_symbol, other=str(printed[printed_symbol][0]))  # fmt: skip
        printed[printed_symbol] = (where, count)
    for i, b in enumerate(comp.blocks.values()):
        where = At("blocks.yaml", f"blocks[{i}].setup")
        if b.setup and b.setup not in printed:
            where.fail(N_("no location or box has the symbol {symbol}"), symbol=b.setup)
        if b.setup and b.setup == comp.mori_box_symbol and b.side != ISHIDA:
            where.fail(N_("only Ishida blocks start in the Mōri Box (9.3)"))
    for printed_symbol, (where, count) in printed.items():
        n = sum(1 for b in comp.blocks.values() if b.setup == printed_symbol)
        if count is not None and n != count:
            where.fail(N_("{symbol} is printed {count} times but {blocks} blocks carry it "
                          "(5.2.1)"), symbol=printed_symbol, count=count, blocks=n)  # fmt: skip
    for side in SIDES:
        bag = sum(1 for b in comp.blocks.values() if b.side == side and not b.setup)
        drawn = comp.first_reinforcements[side] + sum(
            loc.random_blocks[1]
            for loc in comp.locations.values()
            if loc.random_blocks and loc.random_blocks[0] == side
        )
        if drawn > bag:
            At("board.yaml", "boxes.recruitment").fail(
                N_("setup draws {drawn} blocks from the {side} bag, which holds {bag} "
                   "(5.2.2, 5.2.3)"), drawn=drawn, side=side_words(side), bag=bag,
            )  # fmt: skip
