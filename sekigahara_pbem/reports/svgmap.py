"""The map as data for templates/map.svg.j2: locations where the printed board has them,
roads (highways distinct), castles by alignment and control, resource markers, capitals,
stacks with block counts, the reader's own blocks by identity, and this record's moves
(arrows) and combats (marks). Built from one view and its events, like every report.

The board is dense around Kyōto and Kiyosu (its closest locations are 50 units apart on a
map 1,400 wide), so stacks and names are not drawn at fixed offsets: each goes to the
one of its places that covers the least of everything else (`_arrange`).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import pairwise

from ..i18n import gettext as _
from ..rules.components import Components
from . import names as n
from .events import describe
from .model import FIGHT_KINDS
from .shapes import EVENTS, fits

WIDTH = 1400  # SVG units across the board picture (Components.size): about a desktop's px
PAD = 30  # around the outermost locations, before their names and stacks
LABEL = 12  # a location name's font size, in SVG units
LABEL_MIN_PX = 9  # the smallest a name is drawn: a narrower screen scrolls the map sideways
BLOCK = 12  # an own block's glyph
GAP = 2
PER_ROW = 4
BADGE_H = 12
DISK_R = 6
SIDE_FILL = {"ishida": "#e3b505", "tokugawa": "#222222"}
SIDE_INK = {"ishida": "#222222", "tokugawa": "#ffffff"}
ARROW = {"ishida": "#c48a00", "tokugawa": "#1b1b1b"}
# A side sees its own blocks in their clan's colour and the enemy's as counts in the
# enemy's SIDE_FILL: no clan colour may pass for either fill (an Ii block in dark gold
# read as a count of Ishida blocks; tests/test_reports.py measures the distance).
CLAN_PALETTE = (
    "#a93226", "#1f618d", "#117a65", "#7d3c98", "#a3366f",
    "#d35400", "#2874a6", "#196f3d", "#943126", "#5b2c6f",
)  # fmt: skip
# The legend is a band under the map, laid out in map.svg.j2 in four columns of this width.
LEGEND_COLUMN = 330
LEGEND_SIZE = (12 + 4 * LEGEND_COLUMN, 98)

Box = tuple[float, float, float, float]  # left, top, right, bottom
Line = tuple[float, float, float, float, float]  # from x, y, to x, y, cost per unit hidden
Spot = tuple[Box, tuple]  # a box a piece may take, and how it is drawn there


def positions(comp: Components) -> dict[str, tuple[float, float]]:
    """Each location's centre in SVG units: the printed picture's pixels scaled so that
    the picture (`Components.size`; without one, the locations' extent) is WIDTH wide, and
    shifted so that the outermost locations are PAD from the map's edge (the picture's
    margins hold tracks and boxes, not places)."""
    xs = [loc.pos[0] for loc in comp.locations.values()]
    ys = [loc.pos[1] for loc in comp.locations.values()]
    k = WIDTH / (comp.size[0] if comp.size else max(max(xs) - min(xs), 1))
    return {
        loc.id: (
            round(PAD + (loc.pos[0] - min(xs)) * k, 1),
            round(PAD + (loc.pos[1] - min(ys)) * k, 1),
        )
        for loc in comp.locations.values()
    }


def build(view: dict, events: list, comp: Components, side: str | None) -> dict:
    """Everything the template draws, in SVG units, with `box` the viewBox around it all."""
    at = positions(comp)
    own = (view.get("own") or {}) if side else {}
    own_at = {b: loc for loc, bs in own.get("blocks", {}).items() for b in bs}
    clan_colour = {c: CLAN_PALETTE[i % len(CLAN_PALETTE)] for i, c in enumerate(comp.clans)}
    locations = [_location(view, comp, loc, at[loc], own, clan_colour) for loc in comp.locations]
    marks = _marks(view, events, comp, own_at, at)
    ringed = {k["id"] for k in marks if k["kind"] == "arrival"}
    for loc in locations:
        loc["ringed"] = loc["id"] in ringed
    roads = _roads(view, comp, at)
    arrows = _arrows(view, events, comp, own_at, at)
    _arrange(locations, marks, _lines(roads, arrows))
    left, top, right, bottom = _extent(locations, marks)
    width = max(right - left, LEGEND_SIZE[0] + 12)
    legend_y = bottom + 4
    columns = [12 + i * LEGEND_COLUMN for i in range(4)]
    legend = {
        "x": left + 6,
        "y": legend_y,
        "width": width - 12,
        "height": LEGEND_SIZE[1],
        "columns": columns,
    }
    height = legend_y + LEGEND_SIZE[1] + 6 - top
    return {
        "box": {"x": left, "y": top, "width": width, "height": height},
        "min_width": round(width * LABEL_MIN_PX / LABEL),
        "label_size": LABEL,
        "roads": roads,
        "locations": locations,
        "arrows": arrows,
        "marks": marks,
        "legend": legend,
        "side_fill": SIDE_FILL,
        "side_ink": SIDE_INK,
        "arrow": ARROW,
        "clans": [
            {"name": comp.clan_names.get(c, c), "colour": clan_colour[c]}
            for c in comp.clans
            if comp.clans[c] == side
        ],
        "own_side": side,
        "legend_star": star(columns[2] + 22, 37, 9),
        "names": {loc.id: loc.name for loc in comp.locations.values()},
    }


def star(cx: float, cy: float, r: float) -> str:
    """The points of a five-pointed star (the battle mark)."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi * i / 5 - math.pi / 2
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return " ".join(points)


def _roads(view: dict, comp: Components, at: dict) -> list[dict]:
    used = set((view.get("phase") or {}).get("roads", []))
    out = []
    kinds = {True: _("highway"), False: _("road")}
    for pair, highway in comp.roads.items():
        a, b = sorted(pair)
        (x1, y1), (x2, y2) = at[a], at[b]
        out.append(
            {
                "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                "highway": highway,
                "used": f"{a}|{b}" in used,
                "title": f"{n.loc(comp, a)} – {n.loc(comp, b)}: {kinds[bool(highway)]}",
            }
        )  # fmt: skip
    return sorted(out, key=lambda r: r["highway"])  # highways drawn over roads


def _location(
    view: dict, comp: Components, loc: str, xy: tuple, own: dict, clan_colour: dict
) -> dict:
    spec = comp.locations[loc]
    counts = view.get("stacks", {}).get(loc, {})
    castles = view.get("castles", {})
    control = view.get("control", {})
    facts = [spec.name]
    if spec.castle:
        colour = n.colour(spec.castle)
        if castles:
            text = _("castle ({colour}), held by {side}")
            facts.append(text.format(colour=colour, side=n.side(castles.get(loc))))
        else:
            facts.append(_("castle ({colour})").format(colour=colour))
    if spec.resource:
        text = _("resource, controlled by {side}")
        facts.append(text.format(side=n.side(control.get(loc, "nobody"))))
    if spec.capital:
        facts.append(_("capital of {side}").format(side=n.side(spec.capital)))
    if spec.recruit:
        clans = ", ".join(comp.clan_names.get(c, c) for c in spec.recruit)
        facts.append(_("recruits {clans}").format(clans=clans))
    if loc in view.get("besieged", {}):
        facts.append(_("{side} besieged inside").format(side=n.side(view["besieged"][loc])))
    mine = own.get("blocks", {}).get(loc, [])
    if mine:
        facts.append(_("your blocks: {blocks}").format(blocks=", ".join(mine)))
    others = [s for s in n.SIDE_NAMES if counts.get(s) and s != own.get("side")]
    facts += [f"{n.side(s)} {n.count(counts[s], 'block')}" for s in others]
    disks = [
        {"letter": d[:1].upper(), "title": f"{d} ({comp.disks[d].name})" if d in comp.disks else d}
        for d in counts.get("disks", [])
    ]
    if disks:
        facts.append(_("disks: {disks}").format(disks=", ".join(d["title"] for d in disks)))
    x, y = xy
    return {
        "id": loc,
        "name": spec.name,
        "x": x,
        "y": y,
        "castle": spec.castle,
        "held": castles.get(loc),  # None without a view: drawn unfilled, not guessed
        "resource": spec.resource,
        "control": control.get(loc),
        "capital": spec.capital,
        "besieged": loc in view.get("besieged", {}),
        "stack": _stack(comp, mine, {s: counts[s] for s in others}, disks, clan_colour),
        "title": "; ".join(facts),
    }


def _stack(
    comp: Components, mine: list, others: dict, disks: list, clan_colour: dict
) -> dict | None:
    """A location's pieces as one cluster, laid out from its top left corner: the
    reader's blocks in rows, then a row of counts (the other side's, or both on the public
    map) and disks. `_arrange` moves the cluster to a side of its location."""
    if not (mine or others or disks):
        return None
    blocks = []
    for i, b in enumerate(mine):
        spec = comp.blocks[b]
        row, col = divmod(i, PER_ROW)
        blocks.append(
            {
                "x": col * (BLOCK + GAP),
                "y": row * (BLOCK + GAP),
                "id": b,  # the reader's own block: the page answers a click on it
                "fill": clan_colour.get(spec.clan, "#666"),
                "mon": spec.mon,
                "ability": spec.ability,
                "leader": spec.leader,
                "title": n.block(comp, b),
            }
        )
    y = -(-len(mine) // PER_ROW) * (BLOCK + GAP)
    x = 0.0
    badges = []
    for s, count in others.items():
        badge = 9 + 6 * len(str(count))  # its width
        badges.append(
            {"side": s, "count": count, "x": x, "y": y, "width": badge,
             "title": f"{n.side(s)}: {n.count(count, 'block')}"}
        )  # fmt: skip
        x += badge + GAP
    placed = []
    for d in disks:
        placed.append({**d, "x": x + DISK_R, "y": y + DISK_R})
        x += 2 * DISK_R + GAP
    width = max(min(len(mine), PER_ROW) * (BLOCK + GAP), x) - GAP
    height = y + (BADGE_H if badges or disks else -GAP)
    rise = 4 if any(b["leader"] for b in blocks[:PER_ROW]) else 0  # a leader's flag
    return {
        "width": width,
        "height": height,
        "rise": rise,
        "blocks": blocks,
        "badges": badges,
        "disks": placed,
    }


def _arrows(view: dict, events: list, comp: Components, own_at: dict, at: dict) -> list[dict]:
    arrows = []
    for e in events:
        if fits(e, EVENTS, comp):  # one of another shape is described in the text only
            arrows += [a for a in _event_arrows(view, e, comp, own_at, at) if " " in a["points"]]
    return arrows


def _event_arrows(view: dict, e: dict, comp: Components, own_at: dict, at: dict) -> list[dict]:
    title = describe(e, comp, own_at)
    if e.get("type") == "move":
        out = []
        for g in e["groups"]:
            if isinstance(g, dict):
                route = [e["from"], *g["path"]]
            else:  # the mover's own copy: no path, but its view has where the blocks are
                dest = own_at.get(g[0]) if g else None
                if dest is None or dest == e["from"]:
                    continue
                route = _route(view, e["from"], dest)
            out.append(_arrow(at, route, e.get("side"), title, dashed=False))
        return out
    if e.get("type") == "retreat" and e.get("to"):
        return [_arrow(at, [e["location"], e["to"]], e.get("side"), title, dashed=True)]
    return []


def _route(view: dict, start: str, dest: str) -> list[str]:
    """The way from start to dest over the roads used this phase (each at most once,
    7.3.1), or straight there if they do not join them."""
    links: dict[str, list[str]] = {}
    roads = (view.get("phase") or {}).get("roads", [])
    for road in roads if isinstance(roads, list) else []:
        if not isinstance(road, str):  # a view of another shape: no road of it is drawn
            continue
        a, _, b = road.partition("|")
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    came = {start: ""}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in sorted(links.get(here, [])):
            if nxt not in came:
                came[nxt] = here
                todo.append(nxt)
    if dest not in came:
        return [start, dest]
    route = [dest]
    while route[-1] != start:
        route.append(came[route[-1]])
    return route[::-1]


def _arrow(at: dict, route: list[str], side: str | None, title: str, dashed: bool) -> dict:
    points = [at[loc] for loc in route if loc in at]
    if len(points) >= 2:  # stop short of the last location's marker
        (x1, y1), (x2, y2) = points[-2], points[-1]
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1)
        cut = min(12, length / 2)
        points[-1] = (round(x2 - (x2 - x1) * cut / length), round(y2 - (y2 - y1) * cut / length))
    return {
        "points": " ".join(f"{x},{y}" for x, y in points),
        "side": side if side in ARROW else "ishida",
        "title": title,
        "dashed": dashed,
    }


MARKED = {
    "declare": "battle",
    "battle": "battle",
    "siege": "siege",
    "battle_result": "battle",
    "siege_result": "siege",
    "losses": "battle",
    "castle_falls": "siege",
    "retreat": "battle",
    "deploy": "battle",
    "challenge": "battle",
    "no_combat": "siege",
    "castle_choice": "siege",
    "overrun": "overrun",
    "muster": "arrival",
    "mori": "arrival",
}
STAR = (21, 9)  # a battle mark's centre above its location, and its radius


def _marks(view: dict, events: list, comp: Components, own_at: dict, at: dict) -> list[dict]:
    """One mark per location where something was fought or arrived, titled with every
    sentence about it; the fight in progress is marked too."""
    marks: dict[str, dict] = {}
    for e in events:
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            continue
        loc = e.get("location") or e.get("to")
        if e["type"] not in MARKED or not isinstance(loc, str) or loc not in comp.locations:
            continue
        kind = MARKED[e["type"]]
        mark = marks.setdefault(loc, {"kind": kind, "lines": []})
        if kind in ("battle", "siege", "overrun") and mark["kind"] == "arrival":
            mark["kind"] = kind
        mark["lines"].append(describe(e, comp, own_at))
    fight = ((view.get("combat") or {}).get("fight")) or {}
    if isinstance(fight.get("location"), str) and fight["location"] in comp.locations:
        mark = marks.setdefault(fight["location"], {"kind": "battle", "lines": []})
        mark["now"] = True
        what = fight.get("kind")
        what = _(FIGHT_KINDS[what]) if what in FIGHT_KINDS else what or _("starting")
        mark["lines"].append(_("combat in progress: {kind}").format(kind=what))
    out = []
    for loc, mark in marks.items():
        x, y = at[loc]
        out.append(
            {
                "id": loc, "x": x, "y": y, "kind": mark["kind"], "now": mark.get("now", False),
                "star": star(x, y - STAR[0], STAR[1]),
                "title": f"{n.loc(comp, loc)}: " + " / ".join(mark["lines"]),
            }
        )  # fmt: skip
    return out


# Placing stacks and names. Each goes to one of a few spots around its location's marker
# (r: the marker's half size), each spot with a cost for being less usual; covering a
# marker, a mark, a stack or a name costs far more than any spot, hiding a stretch of road
# a little (a name's halo keeps it legible; a stack on a highway hides which way it runs).
COVER = 1000  # for covering anything at all, plus its area
ROAD = {False: 0.4, True: 0.8}  # per unit of a road's, a highway's length a stack covers
ARROWED = 2  # per unit of an arrow's length
HEAD = 10  # per unit of an arrow's head (14 units back from its end, 5 on)
HALO = 0.5  # a name covering a road costs this share of that (its halo keeps it legible)
ASTRAY = 400  # for a piece nearer another location's marker than its own
AMBIGUOUS = (16, 3)  # a piece nearly as near another marker: cost per unit short of that
SPACE = 4  # kept between the pieces of different locations, to tell them apart
EDGE = 1  # per unit a piece reaches beyond the outermost markers (that shrinks the map)
ROUNDS = 6  # at most, of moving each location's pieces to their best spots given the others'
# A name's spots: text-anchor, the baseline's offset from the centre given r and d (the
# marker's reach along a diagonal: r for a square, less for a circle), and the cost.
NAME_SPOTS = (
    ("middle", lambda r, d: (0, r + 12), 0),
    ("start", lambda r, d: (r + 3, 4), 3),
    ("end", lambda r, d: (-r - 3, 4), 3),
    ("middle", lambda r, d: (0, -r - 4), 4),
    ("start", lambda r, d: (d + 2, d + 13), 8),
    ("end", lambda r, d: (-d - 2, d + 13), 8),
    ("start", lambda r, d: (d + 2, -d - 5), 9),
    ("end", lambda r, d: (-d - 2, -d - 5), 9),
    ("middle", lambda r, d: (0, r + 26), 30),
    ("middle", lambda r, d: (0, -r - 18), 32),
)
# A stack's spots: its top left corner's offset from the centre, given r, d and the
# stack's width and height, and the cost. On the right is the usual place.
STACK_SPOTS = (
    (lambda r, d, w, h: (r + 2, -h / 2), 0),
    (lambda r, d, w, h: (d + 1, -d - 1 - h), 10),
    (lambda r, d, w, h: (d + 1, d + 1), 10),
    (lambda r, d, w, h: (-r - 2 - w, -h / 2), 12),
    (lambda r, d, w, h: (-d - 1 - w, -d - 1 - h), 16),
    (lambda r, d, w, h: (-d - 1 - w, d + 1), 16),
    (lambda r, d, w, h: (-w / 2, r + 2), 16),
    (lambda r, d, w, h: (-w / 2, -r - 2 - h), 16),
)
# Widths in ems of DejaVu Sans (a common default, and among the widest fonts) where they
# differ from 0.62 for a small letter and 0.72 for a capital: a name's box is not too small.
EMS = dict.fromkeys("fijlrtI'. ", 0.36) | {"J": 0.3, "m": 0.98, "w": 0.82, "M": 0.87, "W": 1.0}


def _text_width(text: str, size: float) -> float:
    return size * sum(EMS.get(c, 0.72 if c.isupper() else 0.62) for c in text)


@dataclass
class _Piece:
    """A stack or a name, with the boxes it may take (each with its placement) and the
    cost of each before the other locations' pieces are counted."""

    loc: dict
    kind: str
    spots: tuple[Spot, ...]
    cost: list[float] = field(default_factory=list)
    at: int = 0

    @cached_property
    def reach(self) -> Box:
        """The box around all its spots."""
        return _hull([box for box, _ in self.spots])

    @property
    def box(self) -> Box:
        return self.spots[self.at][0]


@dataclass
class _Group:
    """A location's name and stack, placed together: the one may have to make room for
    the other. `choices`: every pair of their spots with its cost before the other
    locations' pieces count, cheapest first; `near`: those pieces that could touch them."""

    pieces: list[_Piece]
    choices: list[tuple[float, tuple[int, ...]]]
    near: list[_Piece] = field(default_factory=list)


def _arrange(locations: list[dict], marks: list[dict], lines: list[Line]) -> None:
    """Give every stack and name a place: most crowded locations first, each where its
    pieces cost least given those already placed, then rounds of moving each location's
    to their best spots given all the others, until none moves (a few rounds)."""
    groups = [_Group(_pieces(loc), []) for loc in locations]
    pieces = [p for g in groups for p in g.pieces]
    _cost(pieces, locations, marks, lines)
    for g, near in zip(groups, _near(groups), strict=True):
        g.near = [pieces[i] for i in near]
        g.choices = _choices(g.pieces)
    placed: set[int] = set()
    for g in sorted(groups, key=lambda g: -len(g.near)):
        _settle(g, [q for q in g.near if id(q) in placed])
        placed.update(id(p) for p in g.pieces)
    for _round in range(ROUNDS):
        if not sum(_settle(g, g.near) for g in groups):
            break
    for p in pieces:
        _put(p)


def _near(groups: list[_Group]) -> list[list[int]]:
    """For each group, the other locations' pieces (their indices among all) that could
    touch its own."""
    shape = tuple(tuple(p.reach for p in g.pieces) for g in groups)
    known = _NEAR.get(shape)
    if known is None:
        reaches = [r for own in shape for r in own]
        known, first = [], 0
        for own in shape:
            hull, mine = _hull(list(own)), range(first, first + len(own))
            known.append([i for i, r in enumerate(reaches) if i not in mine and _meets(hull, r)])
            first += len(own)
        _keep(_NEAR, shape, known)
    return known


def _lines(roads: list[dict], arrows: list[dict]) -> list[Line]:
    """Every road's and arrow's stretches, with what hiding them costs."""
    out = [(r["x1"], r["y1"], r["x2"], r["y2"], ROAD[bool(r["highway"])]) for r in roads]
    for a in arrows:
        points = [tuple(map(float, p.split(","))) for p in a["points"].split()]
        out += [(one[0], one[1], two[0], two[1], ARROWED) for one, two in pairwise(points)]
        (x1, y1), (x2, y2) = points[-2:]
        length = max(math.hypot(x2 - x1, y2 - y1), 1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        out.append((x2 - 14 * ux, y2 - 14 * uy, x2 + 5 * ux, y2 + 5 * uy, HEAD))
    return out


def _pieces(loc: dict) -> list[_Piece]:
    """A location's name and, if it has one, its stack, each with its spots."""
    x, y, (r, d) = loc["x"], loc["y"], _radius(loc)
    out = [_Piece(loc, "name", _name_spots(x, y, r, d, loc["name"]))]
    if loc["stack"]:
        w, h, rise = loc["stack"]["width"], loc["stack"]["height"], loc["stack"]["rise"]
        out.append(_Piece(loc, "stack", _stack_spots(x, y, r, d, (w, h, rise))))
    return out


@lru_cache(maxsize=4096)
def _name_spots(x: float, y: float, r: float, d: float, name: str) -> tuple[Spot, ...]:
    """A name's spots around its location's marker (each map asks again for every name)."""
    width = _text_width(name, LABEL)
    spots = []
    for anchor, offset, rank in NAME_SPOTS:
        dx, dy = offset(r, d)
        left = x + dx - {"middle": width / 2, "start": 0, "end": width}[anchor]
        box = (left - 2, y + dy - 12, left + width + 2, y + dy + 4)
        spots.append((box, (rank, anchor, x + dx, y + dy)))
    return tuple(spots)


@lru_cache(maxsize=4096)
def _stack_spots(
    x: float, y: float, r: float, d: float, size: tuple[float, float, float]
) -> tuple[Spot, ...]:
    """A stack's spots (its width, height and rise: `size`) around its location's marker."""
    w, h, rise = size
    spots = []
    for corner, rank in STACK_SPOTS:
        dx, dy = corner(r, d, w, h + rise)
        dy += rise
        box = (x + dx - 1, y + dy - rise - 1, x + dx + w + 1, y + dy + h + 1)
        spots.append((box, (rank, x + dx, y + dy)))
    return tuple(spots)


def _cost(
    pieces: list[_Piece], locations: list[dict], marks: list[dict], lines: list[Line]
) -> None:
    """Each spot's cost for what stays put, counted once, from what lies within reach."""
    fixed = _markers(locations, marks)
    edge = _hull([(c["x"] - 20, c["y"] - 20, c["x"] + 20, c["y"] + 20) for c in locations])
    spans = [(line, _hull([line[:2] * 2, line[2:4] * 2])) for line in lines]
    centres = [(o, o["x"], o["y"]) for o in locations]
    for p in pieces:  # `_meets(p.reach, ...)` written out: a map asks it a million times
        left, top, right, bottom = p.reach
        walls = [f for f in fixed if left < f[2] and f[0] < right and top < f[3] and f[1] < bottom]
        ways = [
            (line, b)
            for line, b in spans
            if left < b[2] and b[0] < right and top < b[3] and b[1] < bottom
        ]
        wide = (left - 90, top - 90, right + 90, bottom + 90)  # past it, none is ambiguous
        around = [
            o
            for o, x, y in centres
            if o is not p.loc and wide[0] < x < wide[2] and wide[1] < y < wide[3]
        ]
        key = (
            p.kind,
            p.loc["x"],
            p.loc["y"],
            p.spots,
            tuple(walls),
            tuple(line for line, _ in ways),
            tuple((o["x"], o["y"]) for o in around),
            edge,
        )
        cost = _COSTS.get(key)
        if cost is None:
            cost = [
                _fixed_cost(p, box, extra[0], walls, ways, around) + EDGE * _beyond(box, edge)
                for box, extra in p.spots
            ]
            _keep(_COSTS, key, cost)
        p.cost = cost


# What was worked out for earlier maps, by everything it depends on: a replay's maps, one
# a record and reader, differ in a few locations each, and a spot's cost was four fifths
# of laying a map out (`seki replay` of the demo game: 20 s, most of it here).
_COSTS: dict[tuple, list[float]] = {}
_CHOICES: dict[tuple, list[tuple[float, tuple[int, ...]]]] = {}
_NEAR: dict[tuple, list[list[int]]] = {}
_KEPT = 5_000  # entries in each: the demo game's replay (675 maps) keeps about 1,000 costs, 14 MB


def _keep(table: dict, key: tuple, value: list) -> None:
    """Kept, the table emptied first once it holds _KEPT (a long-running page server)."""
    if len(table) >= _KEPT:
        table.clear()
    table[key] = value


def _choices(pieces: list[_Piece]) -> list[tuple[float, tuple[int, ...]]]:
    """`_choose`, kept for the same spots at the same costs."""
    key = tuple((p.spots, tuple(p.cost)) for p in pieces)
    known = _CHOICES.get(key)
    if known is None:
        known = _choose(pieces)
        _keep(_CHOICES, key, known)
    return known


def _choose(pieces: list[_Piece]) -> list[tuple[float, tuple[int, ...]]]:
    """Every placement of a location's pieces (its name, and its stack if it has one),
    cheapest first, by their own cost: the one covering the other counts too. Written
    out for the two shapes a group has: a map makes thousands."""
    if len(pieces) == 1:
        return sorted((cost, (i,)) for i, cost in enumerate(pieces[0].cost))
    name, stack = pieces
    out = []
    for i, (a, _where) in enumerate(name.spots):
        own = name.cost[i]
        for j, (b, _place) in enumerate(stack.spots):
            cost = own + stack.cost[j]
            if _meets(a, b):
                cost += COVER + _overlap(a, b)
            out.append((cost, (i, j)))
    return sorted(out)


def _settle(g: _Group, others: list[_Piece]) -> bool:
    """Put the group's pieces at their cheapest spots given where the others are: the
    choices in order of their own cost, until that alone is no better than the best
    found. Whether any piece moved."""
    best, least = g.choices[0][1], math.inf
    for own, spots in g.choices:
        if own >= least:
            break
        total = own
        for p, i in zip(g.pieces, spots, strict=True):
            box = p.spots[i][0]
            for q in others:  # another location's pieces keep a little apart, to tell them apart
                covered = _overlap(box, q.box, SPACE)
                total += COVER + covered if covered else 0
        if total < least:
            best, least = spots, total
    moved = False
    for p, i in zip(g.pieces, best, strict=True):
        moved |= p.at != i
        p.at = i
    return moved


def _radius(loc: dict) -> tuple[float, float]:
    """How far a location's marker reaches from its centre, straight and diagonally: a
    castle's square (with its siege frame), a capital's ring, a place's circle, and the
    ring of an arrival around any of them."""
    if loc["castle"]:
        r = 14 if loc["besieged"] else 11
        return (15, 15) if loc["ringed"] else (r, r)
    r = 15 if loc["ringed"] else 12 if loc["capital"] else 8
    return r, round(r * math.sqrt(0.5), 1)


def _markers(locations: list[dict], marks: list[dict]) -> list[Box]:
    """What stays where it is: every location's marker and resource cube, the marks."""
    out = []
    for loc in locations:
        x, y, (r, d) = loc["x"], loc["y"], _radius(loc)
        out += [(x - r, y - d, x + r, y + d), (x - d, y - r, x + d, y + r)]  # a cross
        if loc["resource"]:
            out.append((x - 17, y - 17, x - 8, y - 8))
    dy, r = STAR
    out += [(k["x"] - r, k["y"] - dy - r, k["x"] + r, k["y"] - dy + r) for k in marks]
    return out


def _fixed_cost(
    p: _Piece,
    box: Box,
    rank: float,
    walls: list[Box],
    lines: list[tuple[Line, Box]],
    around: list[dict],
) -> float:
    """A spot's cost for its rank and for what stays put: markers and marks it covers, roads
    it hides (`lines` with their boxes: a line whose box does not touch the spot's hides
    none of it), and how far it is from any other location (`around`: those near)."""
    cost = rank + sum(COVER + _overlap(box, f) for f in walls if _meets(box, f))
    hidden = sum(line[4] * _covered(box, line) for line, span in lines if _touches(box, span))
    cost += hidden * (HALO if p.kind == "name" else 1)
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    own = math.dist(centre, (p.loc["x"], p.loc["y"]))
    other = min(
        (math.dist(centre, (o["x"], o["y"])) for o in around),
        default=math.inf,
    )
    margin, price = AMBIGUOUS
    return cost + (ASTRAY if other < own else max(0, margin - (other - own)) * price)


def _put(p: _Piece) -> None:
    """Write the chosen spot into the location's data for the template."""
    loc = p.loc
    if p.kind == "name":
        _, loc["anchor"], loc["lx"], loc["ly"] = p.spots[p.at][1]
        loc["label_box"] = p.box
        return
    _, left, top = p.spots[p.at][1]
    stack = loc["stack"]
    for item in stack["blocks"] + stack["badges"] + stack["disks"]:
        item["x"] = round(item["x"] + left, 1)
        item["y"] = round(item["y"] + top, 1)
    stack["box"] = p.box


def _extent(locations: list[dict], marks: list[dict]) -> Box:
    """The box around everything drawn on the map, with a little margin: the rings that
    show where a stack can go (r 19 in map.svg.j2) included."""
    boxes = _markers(locations, marks) + [loc["label_box"] for loc in locations]
    boxes += [loc["stack"]["box"] for loc in locations if loc["stack"]]
    boxes += [(c["x"] - 21, c["y"] - 21, c["x"] + 21, c["y"] + 21) for c in locations]
    left, top, right, bottom = _hull(boxes)
    return (math.floor(left - 6), math.floor(top - 6), math.ceil(right + 6), math.ceil(bottom + 6))


def _hull(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _beyond(box: Box, edge: Box) -> float:
    """How far the box reaches out of the edge, all sides added."""
    return sum(
        max(0, d) for d in (edge[0] - box[0], edge[1] - box[1], box[2] - edge[2], box[3] - edge[3])
    )


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touches(a: Box, b: Box) -> bool:
    """`_meets`, edges included: a road along a box's edge lies inside it (`_covered`)."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _overlap(a: Box, b: Box, space: float = 0) -> float:
    """The area two boxes share, counting `space` around them as theirs."""
    w = min(a[2], b[2]) - max(a[0], b[0]) + space
    h = min(a[3], b[3]) - max(a[1], b[1]) + space
    return w * h if w > 0 and h > 0 else 0.0


def _covered(box: Box, line: Line) -> float:
    """How much of a line lies inside the box (Liang and Barsky's clipping)."""
    x1, y1, x2, y2, _ = line
    dx, dy = x2 - x1, y2 - y1
    enter, leave = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q < 0:
                return 0.0
        elif p < 0:
            enter = max(enter, q / p)
        else:
            leave = min(leave, q / p)
    return max(leave - enter, 0.0) * math.hypot(dx, dy)
