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

from ..refusal import Code, UserError
from .vocab import ISHIDA, SIDES, TOKUGAWA

CASTLE_COLOURS = {"gold": ISHIDA, "black": TOKUGAWA}
CARD_KINDS = ("plain", "swords", "double", "loyalty")
ABILITIES = ("gun", "cavalry")


class ComponentError(UserError):
    """A component manifest is invalid; `where` is the path to the bad field."""

    code = Code.COMPONENTS

    def __init__(self, where: str, message: str):
        super().__init__(message, at=where)


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

    def __missing__(self, key: str) -> str:
        return self._blocks[key].side


def _req(d: Any, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(d, dict):
        raise ComponentError(where, "expected a mapping")
    if key not in d:
        raise ComponentError(f"{where}.{key}", "missing")
    return _typed(d[key], f"{where}.{key}", kind)


def _opt(d: dict, key: str, where: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    if d.get(key) is None:
        return default
    return _typed(d[key], f"{where}.{key}", kind)


def _typed(value: Any, where: str, kind: type | tuple[type, ...]) -> Any:
    if isinstance(value, bool) and kind in (int, str):
        raise ComponentError(where, f"expected {kind.__name__}, got a boolean")
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ComponentError(where, f"expected {names}, got {type(value).__name__}")
    return value


def _side_of_colour(value: str, where: str) -> str:
    if value in CASTLE_COLOURS:
        return CASTLE_COLOURS[value]
    if value in SIDES:
        return value
    raise ComponentError(where, f"'{value}' is not gold/black or ishida/tokugawa")


def _list(d: dict, key: str, where: str) -> list:
    return _req(d, key, where, list)


def build_components(board: Any, blocks: Any, cards: Any) -> Components:
    """Check three manifests against each other and the rulebook's fixed facts."""
    clans, clan_names, block_map, disks = _build_blocks(blocks)
    b = _build_board(board, clans)
    card_map, bid_tie = _build_cards(cards, clans)
    comp = Components(
        name=_opt(board, "name", "board", str, "board"),
        locations=b.locations,
        roads=b.roads,
        adjacent=b.adjacent,
        clans=clans,
        clan_names=clan_names,
        blocks=block_map,
        disks=disks,
        cards=card_map,
        mori_box_symbol=b.mori_symbol,
        mori_entry=b.mori_entry,
        recruitment_track=b.track,
        first_reinforcements=b.first_reinforcements,
        bid_tie=bid_tie,
        size=b.size,
    )
    _cross_check(comp, b.mori_count)
    return comp


def _build_blocks(doc: Any) -> tuple[dict, dict, dict, dict]:
    if not isinstance(doc, dict):
        raise ComponentError("blocks", "expected a mapping")
    clans: dict[str, str] = {}
    names: dict[str, str] = {}
    for i, c in enumerate(_list(doc, "clans", "blocks")):
        w = f"blocks.clans[{i}]"
        cid = _req(c, "id", w, str)
        if cid in clans:
            raise ComponentError(f"{w}.id", f"duplicate clan '{cid}'")
        clans[cid] = _side_of_colour(_req(c, "side", w, str), f"{w}.side")
        names[cid] = _opt(c, "name", w, str, cid)
    blocks: dict[str, Block] = {}
    for i, b in enumerate(_list(doc, "blocks", "blocks")):
        w = f"blocks.blocks[{i}]"
        bid = _req(b, "id", w, str)
        if bid in blocks:
            raise ComponentError(f"{w}.id", f"duplicate block '{bid}'")
        clan = _req(b, "clan", w, str)
        if clan not in clans:
            raise ComponentError(f"{w}.clan", f"unknown clan '{clan}'")
        mon = _req(b, "mon", w, int)
        if not 1 <= mon <= 4:
            raise ComponentError(f"{w}.mon", f"strength must be 1-4 mon (3.2), got {mon}")
        ability = _opt(b, "ability", w, str)
        if ability is not None and ability not in ABILITIES:
            raise ComponentError(f"{w}.ability", f"must be gun or cavalry (3.2), got '{ability}'")
        leader = _opt(b, "leader", w, int, 0)
        if leader not in (0, 1, 3):
            raise ComponentError(f"{w}.leader", f"nobori has 1 or 3 dots (3.2), got {leader}")
        blocks[bid] = Block(
            id=bid,
            side=clans[clan],
            clan=clan,
            mon=mon,
            ability=ability,
            leader=leader,
            any_card=_opt(b, "any_card", w, bool, False),
            setup=_opt(b, "setup", w, str),
            name=_opt(b, "name", w, str),
        )
    disks: dict[str, Disk] = {}
    for i, d in enumerate(_opt(doc, "disks", "blocks", list, [])):
        w = f"blocks.disks[{i}]"
        did = _req(d, "id", w, str)
        if did in disks or did in blocks:
            raise ComponentError(f"{w}.id", f"duplicate id '{did}'")
        disks[did] = Disk(
            id=did,
            name=_opt(d, "name", w, str, did),
            side=_side_of_colour(_req(d, "side", w, str), f"{w}.side"),
            location=_req(d, "location", w, str),
            instant_loss=_opt(d, "instant_loss", w, bool, False),
        )
    return clans, names, blocks, disks


@dataclass
class _Board:
    """What `_build_board` read, before the cross-checks."""

    locations: dict[str, Location]
    roads: dict[frozenset, bool]
    adjacent: dict[str, tuple[str, ...]]
    mori_symbol: str | None
    mori_count: int | None
    mori_entry: str | None
    track: dict[int, int]
    first_reinforcements: dict[str, int]
    size: tuple[int, int] | None


def _pair(value: Any, where: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in value)
    ):
        raise ComponentError(where, "expected [x, y] integers")
    return value[0], value[1]


def _setup(d: dict, where: str) -> tuple[str | None, int | None]:
    """A location's or box's setup symbol and how many times it is printed (5.2.1). The
    first board format named the symbol alone (`setup_symbol`), its count being however
    many blocks carry it: an archive made with such a set still loads."""
    setup = _opt(d, "setup", where, dict)
    if setup is None:
        symbol = _opt(d, "setup_symbol", where, str)
        return symbol, None
    symbol = _req(setup, "symbol", f"{where}.setup", str)
    count = _req(setup, "count", f"{where}.setup", int)
    if count < 1:
        raise ComponentError(f"{where}.setup.count", "a printed symbol appears at least once")
    return symbol, count


def _build_board(doc: Any, clans: dict[str, str]) -> _Board:
    if not isinstance(doc, dict):
        raise ComponentError("board", "expected a mapping")
    size = _opt(doc, "size", "board", list)
    locations: dict[str, Location] = {}
    for i, loc in enumerate(_list(doc, "locations", "board")):
        w = f"board.locations[{i}]"
        lid = _req(loc, "id", w, str)
        if lid in locations:
            raise ComponentError(f"{w}.id", f"duplicate location '{lid}'")
        pos = _pair(_req(loc, "pos", w, list), f"{w}.pos")
        castle = _opt(loc, "castle", w, str)
        capital = _opt(loc, "capital", w, str)
        recruit = tuple(_typed(c, f"{w}.recruit", str) for c in _opt(loc, "recruit", w, list, []))
        for c in recruit:
            if c not in clans:
                raise ComponentError(f"{w}.recruit", f"unknown clan '{c}'")
        rnd = _opt(loc, "random_blocks", w, dict)
        random_blocks = None
        if rnd is not None:
            count = _req(rnd, "count", f"{w}.random_blocks", int)
            if not 1 <= count <= 3:
                raise ComponentError(f"{w}.random_blocks.count", "must be +1, +2 or +3 (5.2.2)")
            side = _side_of_colour(_req(rnd, "side", f"{w}.random_blocks", str), w)
            random_blocks = (side, count)
        resource = _opt(loc, "resource", w, bool, False)
        if capital is not None:
            capital = _side_of_colour(capital, f"{w}.capital")
            if not resource:
                raise ComponentError(f"{w}.resource", "capitals are resource locations (4.5)")
        symbol, symbols = _setup(loc, w)
        locations[lid] = Location(
            id=lid,
            name=_opt(loc, "name", w, str, lid),
            pos=pos,
            castle=_side_of_colour(castle, f"{w}.castle") if castle else None,
            resource=resource,
            capital=capital,
            recruit=recruit,
            setup_symbol=symbol,
            setup_count=symbols,
            random_blocks=random_blocks,
        )
    roads, adjacent = _build_roads(doc, locations)
    _check_connected(locations, adjacent)
    boxes = _opt(doc, "boxes", "board", dict, {})
    box = _opt(boxes, "mori", "board.boxes", dict, {})
    entry = _opt(box, "enters_at", "board.boxes.mori", str)
    if entry is not None and entry not in locations:
        raise ComponentError("board.boxes.mori.enters_at", f"unknown location '{entry}'")
    mori_symbol, mori_count = _setup(box, "board.boxes.mori")
    track_doc = _opt(doc, "recruitment_track", "board", dict, {})
    track = {}
    for week, n in track_doc.items():
        if not isinstance(week, int) or not isinstance(n, int) or n < 0:
            raise ComponentError("board.recruitment_track", "expected week: blocks integers")
        track[week] = n
    first = {}
    recruitment = _opt(boxes, "recruitment", "board.boxes", dict, {})
    for side in SIDES:  # 5.2.3: four blocks each unless the board prints otherwise
        first[side] = _opt(recruitment, side, "board.boxes.recruitment", int, 4)
        if first[side] < 0:
            raise ComponentError(f"board.boxes.recruitment.{side}", "a count of blocks")
    return _Board(
        locations=locations,
        roads=roads,
        adjacent={k: tuple(sorted(v)) for k, v in adjacent.items()},
        mori_symbol=mori_symbol,
        mori_count=mori_count,
        mori_entry=entry,
        track=track,
        first_reinforcements=first,
        size=_pair(size, "board.size") if size is not None else None,
    )


def _build_roads(doc: dict, locations: dict) -> tuple[dict[frozenset, bool], dict[str, list]]:
    roads: dict[frozenset, bool] = {}
    adjacent: dict[str, list[str]] = {lid: [] for lid in locations}
    for i, r in enumerate(_list(doc, "roads", "board")):
        w = f"board.roads[{i}]"
        if not isinstance(r, list) or len(r) != 3:
            raise ComponentError(w, "expected [from, to, highway|road]")
        a, b, kind = r
        for end in (a, b):
            if not isinstance(end, str) or end not in locations:
                raise ComponentError(w, f"unknown location '{end}'")
        if a == b:
            raise ComponentError(w, "a road must join two different locations")
        if kind not in ("highway", "road"):
            raise ComponentError(w, f"kind must be highway or road, got '{kind}'")
        key = frozenset((a, b))
        if key in roads:
            raise ComponentError(w, f"duplicate road {a}-{b}")
        roads[key] = kind == "highway"
        adjacent[a].append(b)
        adjacent[b].append(a)
    return roads, adjacent


def _check_connected(locations: dict, adjacent: dict) -> None:
    if not locations:
        raise ComponentError("board.locations", "the board has no locations")
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
        raise ComponentError("board.roads", f"locations not connected to the rest: {missing}")


def _build_cards(doc: Any, clans: dict[str, str]) -> tuple[dict[str, Card], str | None]:
    """The decks, and the side that wins a tied bid: bid numbers may repeat within a deck
    (the printed cards share one number a kind), but a number in both decks could tie a
    bid (6.3), which the rulebook does not settle, so such a set must name a tie rule."""
    if not isinstance(doc, dict):
        raise ComponentError("cards", "expected a mapping")
    cards: dict[str, Card] = {}
    bids: dict[int, dict[str, str]] = {}
    for i, c in enumerate(_list(doc, "cards", "cards")):
        w = f"cards.cards[{i}]"
        cid = _req(c, "id", w, str)
        if cid in cards:
            raise ComponentError(f"{w}.id", f"duplicate card '{cid}'")
        deck = _side_of_colour(_req(c, "deck", w, str), f"{w}.deck")
        kind = _req(c, "kind", w, str)
        if kind not in CARD_KINDS:
            raise ComponentError(f"{w}.kind", f"must be one of {', '.join(CARD_KINDS)}")
        clan = _opt(c, "clan", w, str)
        if kind == "loyalty" and clan is not None:
            raise ComponentError(f"{w}.clan", "a Loyalty Challenge card shows no mon (8.6)")
        if kind != "loyalty":
            if clan is None:
                raise ComponentError(f"{w}.clan", "missing: every non-Loyalty card shows a mon")
            if clans.get(clan) != deck:
                raise ComponentError(f"{w}.clan", f"clan '{clan}' is not of the {deck} deck")
        bid = _req(c, "bid", w, int)
        bids.setdefault(bid, {}).setdefault(deck, cid)
        cards[cid] = Card(id=cid, deck=deck, kind=kind, bid=bid, clan=clan)
    tie = _opt(doc, "bid_tie", "cards", str)
    if tie is not None:
        tie = _side_of_colour(tie, "cards.bid_tie")
    shared = sorted(n for n, decks in bids.items() if len(decks) > 1)
    if shared and tie is None:
        n = shared[0]
        raise ComponentError(
            "cards.bid_tie",
            f"bid {n} is on both decks ('{bids[n][ISHIDA]}', '{bids[n][TOKUGAWA]}'), so a "
            "bid could tie (6.3): name the side that wins a tie (bid_tie: ishida|tokugawa)",
        )
    return cards, tie


def _cross_check(comp: Components, mori_count: int | None) -> None:
    _check_disjoint_ids(comp)
    for side in SIDES:
        protagonists = [b.id for b in comp.blocks.values() if b.side == side and b.leader == 3]
        if len(protagonists) != 1:
            raise ComponentError(
                "blocks.blocks",
                f"{side} needs exactly one three-dot leader (3.2, 2.1), found {len(protagonists)}",
            )
        if not comp.deck(side):
            raise ComponentError("cards.cards", f"the {side} deck is empty (3.3)")
    for d in comp.disks.values():
        loc = comp.locations.get(d.location)
        if loc is None:
            raise ComponentError(f"blocks.disks.{d.id}", f"unknown location '{d.location}'")
        if loc.castle is None:
            raise ComponentError(f"blocks.disks.{d.id}", "a disk is attached to a castle (3.4)")
    _check_setup(comp, mori_count)


def _check_setup(comp: Components, mori_count: int | None) -> None:
    """5.2.1: one block for every symbol printed, each symbol printed in one place; 5.2.2
    and 5.2.3: each bag holds the blocks the setup draws from it."""
    printed: dict[str, tuple[str, int | None]] = {}
    places = [(f"board.locations.{loc.id}", loc.setup_symbol, loc.setup_count)
              for loc in comp.locations.values() if loc.setup_symbol]  # fmt: skip
    if comp.mori_box_symbol:
        places.append(("board.boxes.mori", comp.mori_box_symbol, mori_count))
    for where, symbol, count in places:
        if symbol in printed:
            raise ComponentError(
                f"{where}.setup",
                f"symbol '{symbol}' is also printed at {printed[symbol][0]} (5.2.1)",
            )
        printed[symbol] = (where, count)
    for b in comp.blocks.values():
        if b.setup and b.setup not in printed:
            raise ComponentError(
                f"blocks.blocks.{b.id}.setup", f"no location or box has symbol '{b.setup}'"
            )
        if b.setup and b.setup == comp.mori_box_symbol and b.side != ISHIDA:
            raise ComponentError(
                f"blocks.blocks.{b.id}", "only Ishida blocks start in the Mōri Box"
            )
    for symbol, (where, count) in printed.items():
        n = sum(1 for b in comp.blocks.values() if b.setup == symbol)
        if count is not None and n != count:
            raise ComponentError(
                f"{where}.setup",
                f"'{symbol}' is printed {count} times but {n} blocks carry it (5.2.1)",
            )
    for side in SIDES:
        bag = sum(1 for b in comp.blocks.values() if b.side == side and not b.setup)
        drawn = comp.first_reinforcements[side] + sum(
            loc.random_blocks[1]
            for loc in comp.locations.values()
            if loc.random_blocks and loc.random_blocks[0] == side
        )
        if drawn > bag:
            raise ComponentError(
                "board",
                f"setup draws {drawn} blocks from the {side} bag, which holds {bag} (5.2.2, 5.2.3)",
            )


def _check_disjoint_ids(comp: Components) -> None:
    """Orders name blocks, cards, disks and locations by id alone, so no two may share one
    (nor may any be a side's name)."""
    seen: dict[str, str] = {s: "side" for s in SIDES}
    for kind, ids in (
        ("location", comp.locations),
        ("block", comp.blocks),
        ("disk", comp.disks),
        ("card", comp.cards),
    ):
        for i in ids:
            if i in seen:
                raise ComponentError(f"{kind} {i}", f"id also used by a {seen[i]}")
            seen[i] = kind
