"""The map as data for templates/map.svg.j2: locations at their board positions, roads
(highways distinct), castles by alignment and control, resource markers, stacks with
block counts, the reader's own blocks by identity, and this record's moves (arrows) and
combats (marks). Built from one view and its events, like every report.
"""

from __future__ import annotations

import math
from collections import deque

from ..i18n import gettext as _
from ..rules.components import Components
from . import names as n
from .events import describe
from .model import FIGHT_KINDS

SCALE = 12  # board units (0-100) to SVG user units
MARGIN = 30
BLOCK = 11  # an own block's glyph, and the gap after it
GAP = 2
PER_ROW = 4
SIDE_FILL = {"ishida": "#e3b505", "tokugawa": "#222222"}
SIDE_INK = {"ishida": "#222222", "tokugawa": "#ffffff"}
ARROW = {"ishida": "#c48a00", "tokugawa": "#1b1b1b"}
CLAN_PALETTE = (
    "#a93226", "#1f618d", "#117a65", "#7d3c98", "#b9770e",
    "#6e2c00", "#2e4053", "#196f3d", "#943126", "#5b2c6f",
)  # fmt: skip


def xy(comp: Components, loc: str) -> tuple[int, int]:
    x, y = comp.locations[loc].pos
    return MARGIN + x * SCALE, MARGIN + y * SCALE


def build(view: dict, events: list, comp: Components, side: str | None) -> dict:
    xs = [MARGIN + loc.pos[0] * SCALE for loc in comp.locations.values()]
    ys = [MARGIN + loc.pos[1] * SCALE for loc in comp.locations.values()]
    own = (view.get("own") or {}) if side else {}
    own_at = {b: loc for loc, bs in own.get("blocks", {}).items() for b in bs}
    clan_colour = {c: CLAN_PALETTE[i % len(CLAN_PALETTE)] for i, c in enumerate(comp.clans)}
    locations = [_location(view, comp, loc, own, clan_colour) for loc in comp.locations]
    marks = _marks(view, events, comp, own_at)
    _place_labels(locations, marks)
    return {
        "width": max(xs) + 2 * MARGIN + 60,
        "height": max(ys) + 2 * MARGIN,
        "roads": _roads(view, comp),
        "locations": locations,
        "arrows": _arrows(view, events, comp, own_at),
        "marks": marks,
        "side_fill": SIDE_FILL,
        "side_ink": SIDE_INK,
        "arrow": ARROW,
        "clans": [
            {"name": comp.clan_names.get(c, c), "colour": clan_colour[c]}
            for c in comp.clans
            if comp.clans[c] == side
        ],
        "own_side": side,
        "legend_star": star(33, 158, 9),
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


def _roads(view: dict, comp: Components) -> list[dict]:
    used = set((view.get("phase") or {}).get("roads", []))
    out = []
    kinds = {True: _("highway"), False: _("road")}
    for pair, highway in comp.roads.items():
        a, b = sorted(pair)
        (x1, y1), (x2, y2) = xy(comp, a), xy(comp, b)
        out.append(
            {
                "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                "highway": highway,
                "used": f"{a}|{b}" in used,
                "title": f"{n.loc(comp, a)} – {n.loc(comp, b)}: {kinds[bool(highway)]}",
            }
        )  # fmt: skip
    return sorted(out, key=lambda r: r["highway"])  # highways drawn over roads


def _location(view: dict, comp: Components, loc: str, own: dict, clan_colour: dict) -> dict:
    spec = comp.locations[loc]
    x, y = xy(comp, loc)
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
    blocks = []
    for i, b in enumerate(mine):
        spec_b = comp.blocks[b]
        row, col = divmod(i, PER_ROW)
        blocks.append(
            {
                "x": x + 13 + col * (BLOCK + GAP),
                "y": y - 14 + row * (BLOCK + GAP),
                "fill": clan_colour.get(spec_b.clan, "#666"),
                "mon": spec_b.mon,
                "ability": spec_b.ability,
                "leader": spec_b.leader,
                "title": n.block(comp, b),
            }
        )
    rows = (len(mine) + PER_ROW - 1) // PER_ROW
    badges = []
    by = y - 14 + rows * (BLOCK + GAP)
    for s in n.SIDE_NAMES:
        if counts.get(s) and s != own.get("side"):
            badges.append(
                {"side": s, "count": counts[s], "x": x + 13, "y": by,
                 "title": f"{n.side(s)}: {n.count(counts[s], 'block')}"}
            )  # fmt: skip
            by += BLOCK + GAP + 1
    if mine:
        facts.append(_("your blocks: {blocks}").format(blocks=", ".join(mine)))
    for s in n.SIDE_NAMES:
        if counts.get(s) and s != own.get("side"):
            facts.append(f"{n.side(s)} {n.count(counts[s], 'block')}")
    disks = [
        {"letter": d[:1].upper(), "title": f"{d} ({comp.disks[d].name})" if d in comp.disks else d}
        for d in counts.get("disks", [])
    ]
    if disks:
        facts.append(_("disks: {disks}").format(disks=", ".join(d["title"] for d in disks)))
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
        "disks": disks,
        "blocks": blocks,
        "badges": badges,
        "title": "; ".join(facts),
    }


CHAR_WIDTH = 6.3  # of an 11px label, a little over the average, to be safe
# Where a label may go, relative to its location: (anchor, dx, dy of the baseline).
LABEL_SPOTS = (
    ("middle", 0, 23),
    ("start", 12, 4),
    ("middle", 0, -15),
    ("end", -12, 4),
    ("start", -4, 23),
    ("end", 4, 23),
)


def _label_box(anchor: str, x: float, y: float, width: float) -> tuple:
    left = {"middle": x - width / 2, "start": x, "end": x - width}[anchor]
    return (left - 4, y - 9, left + width + 4, y + 2)  # a little room between names


def _overlap(a: tuple, b: tuple) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place_labels(locations: list[dict], marks: list[dict]) -> None:
    """Put each name where it covers the least of the markers, stacks, marks and names
    already placed (greedy; the board is dense around Kyōto)."""
    taken = []
    for loc in locations:
        x, y = loc["x"], loc["y"]
        taken.append((x - 11, y - 11, x + 11, y + 11))
        taken += [(b["x"], b["y"], b["x"] + BLOCK, b["y"] + BLOCK) for b in loc["blocks"]]
        taken += [(c["x"], c["y"], c["x"] + 20, c["y"] + 12) for c in loc["badges"]]
        if loc["resource"]:
            taken.append((x - 17, y - 17, x - 8, y - 8))
        taken += [
            (x - 20 + 12 * i, y + 8, x - 8 + 12 * i, y + 20) for i in range(len(loc["disks"]))
        ]
    taken += [(k["x"] - 9, k["y"] - 30, k["x"] + 9, k["y"] - 12) for k in marks]
    for loc in locations:
        x, y = loc["x"], loc["y"]
        width = CHAR_WIDTH * len(loc["name"])
        reach = width + 20
        near = [t for t in taken if t[0] < x + reach and t[2] > x - reach and abs(t[1] - y) < 40]
        best = None
        for rank, (anchor, dx, dy) in enumerate(LABEL_SPOTS):
            box = _label_box(anchor, x + dx, y + dy, width)
            cost = sum(_overlap(box, t) for t in near) + rank * 4
            if best is None or cost < best[0]:
                best = (cost, anchor, loc["x"] + dx, loc["y"] + dy, box)
        _, loc["anchor"], loc["lx"], loc["ly"], box = best
        taken.append(box)


def _arrows(view: dict, events: list, comp: Components, own_at: dict) -> list[dict]:
    arrows = []
    for e in events:
        if not isinstance(e, dict):
            continue
        try:
            arrows += [a for a in _event_arrows(view, e, comp, own_at) if " " in a["points"]]
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            continue  # an event of an unexpected shape is still described in the text
    return arrows


def _event_arrows(view: dict, e: dict, comp: Components, own_at: dict) -> list[dict]:
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
                route = _route(view, comp, e["from"], dest)
            out.append(_arrow(comp, route, e.get("side"), title, dashed=False))
        return out
    if e.get("type") == "retreat" and e.get("to"):
        return [_arrow(comp, [e["location"], e["to"]], e.get("side"), title, dashed=True)]
    return []


def _route(view: dict, comp: Components, start: str, dest: str) -> list[str]:
    """The way from start to dest over the roads used this phase (each at most once,
    7.3.1), or straight there if they do not join them."""
    links: dict[str, list[str]] = {}
    for road in (view.get("phase") or {}).get("roads", []):
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


def _arrow(comp: Components, route: list[str], side: str | None, title: str, dashed: bool) -> dict:
    points = [xy(comp, loc) for loc in route if loc in comp.locations]
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


def _marks(view: dict, events: list, comp: Components, own_at: dict) -> list[dict]:
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
        kind = fight.get("kind")
        kind = _(FIGHT_KINDS[kind]) if kind in FIGHT_KINDS else kind or _("starting")
        mark["lines"].append(_("combat in progress: {kind}").format(kind=kind))
    out = []
    for loc, mark in marks.items():
        x, y = xy(comp, loc)
        out.append(
            {
                "x": x, "y": y, "kind": mark["kind"], "now": mark.get("now", False),
                "star": star(x, y - 21, 9),
                "title": f"{n.loc(comp, loc)}: " + " / ".join(mark["lines"]),
            }
        )  # fmt: skip
    return out
