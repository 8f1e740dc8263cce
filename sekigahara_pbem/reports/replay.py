"""A game's public records as one self-contained page to step through like a film (`seki
replay`): each record's map, drawn from its public view with its public events (the map
of `seki report --seq N`, record by record), what happened in it in words, and the game
at a glance after it; forward and back by button, slider or key. Each map is drawn from a
view and the record's public events, as every report is: the spectator's (hidden blocks
as counts, hands as sizes), and once the game is revealed each side's own, with its
blocks and hand as that side saw them then.

The maps share most of their lines (the roads, the places, the legend): the page keeps
each distinct line once and every record as the numbers of its lines, so two hundred
records of a demo game weigh about what ten maps do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from ..i18n import current
from ..i18n import gettext as _
from ..rules.components import Components
from ..rules.state_types import State
from . import model, svgmap, text
from . import names as n
from .env import environment
from .events import describe


class Record(NamedTuple):
    """One record as the replay shows it: its number, its public view ({} where none is
    kept), its public events, and once the game is revealed each side's view of it
    (side -> view), as that side saw the game then. A record of several actions, once
    revealed, is shown an action at a time too: `part` of `parts`, its view after that
    action, its events up to it, the last `new` of them the action's own. A record with
    no events to tell (a two-party record read without the secrets) says its actions in
    words instead (`said`)."""

    seq: int
    view: dict
    events: list
    sides: dict[str, dict]
    part: int = 1
    parts: int = 1
    new: int = 0
    said: tuple[str, ...] = ()


def staged(
    seq: int, state: State, events: list, stages: Sequence[tuple[State, list]], comp: Components
) -> list[Record]:
    """A revealed record as the replay shows it, an action at a time (`stages`: the state
    after each action and its events; none for a record of one), the whole record last.
    `events` are the record's public events, the stages' events redacted, in order."""
    from ..rules.views import view  # the engine's tables: not for `seki report`
    from ..rules.vocab import SIDES

    states = [s for s, _ in stages[:-1]] + [state]
    counts = [len(e) for _, e in stages[:-1]] + [len(events) - sum(len(e) for _, e in stages[:-1])]
    out, told = [], 0
    for part, (now, new) in enumerate(zip(states, counts, strict=True), start=1):
        told += new
        sides = {side: view(now, comp, side) for side in SIDES}
        out.append(Record(seq, view(now, comp, None), events[:told], sides, part, len(states), new))
    return out


def render(game_id: str, records: Sequence[Record], comp: Components) -> str:
    """The replay page of these records, in order: one HTML file, its script inline,
    nothing fetched from anywhere."""
    lines: dict[str, int] = {}
    frames = [_frame(r, comp, lines) for r in records]
    data = {"lines": list(lines), "frames": frames}
    return (
        environment()
        .get_template("replay.html.j2")
        .render(
            title=_("Sekigahara, game {game}: the replay").format(game=game_id),
            data=json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"),
            words=json.dumps(_words(), ensure_ascii=False).replace("<", "\\u003c"),
            lang=current(),
        )
    )


def _frame(record: Record, comp: Components, lines: dict[str, int]) -> dict:
    """A record's title, events in words, the game at a glance and its map's lines (as
    numbers into `lines`, which gains the lines it did not hold)."""
    told = [describe(e, comp, {}) for e in record.events] or list(record.said)
    told = told or [_("nothing new")]
    if not record.view:
        return {"seq": record.seq, "events": told, "situation": [_(text.MISSING_VIEW)]}
    part = {"part": record.part, "parts": record.parts, "new": record.new}
    shown = model.situation(record.view, comp)
    situation = model.glance(shown) + [f"{name}: {items}" for name, items in shown["boxes"]]
    maps = {"public": _map(record.view, record.events, comp, None, lines)}
    hands = {}
    for side, seen in record.sides.items():
        maps[side] = _map(seen, record.events, comp, side, lines)
        cards = ", ".join(seen["own"]["hand"]) or _("empty")
        hands[side] = _("{side}'s hand: {cards}").format(side=n.side(side), cards=cards)
    return {
        "seq": record.seq,
        **part,
        "events": told,
        "situation": situation,
        "maps": maps,
        "hands": hands,
    }


def _map(view: dict, events: list, comp: Components, side: str | None, lines: dict) -> list:
    """The map of a view, as the numbers of its lines in `lines`."""
    m = svgmap.build(view, events, comp, side)
    m["reach"] = {}
    svg = environment().get_template("map.svg.j2").render(m=m)
    return [lines.setdefault(line, len(lines)) for line in svg.split("\n")]


def _words() -> dict[str, str]:
    """The page's own words, in the reader's language."""
    return {
        "record": _("Record {seq} of {last}"),
        "first": _("First"),
        "back": _("Back"),
        "next": _("Next"),
        "last": _("Last"),
        "before": _("‹ Action"),
        "after": _("Action ›"),
        "action": _("action {part} of {parts}"),
        "keys": _(
            "Keys: ← and → step by record, with Shift by action; Home and End go to the first "
            "and the last record."
        ),
        "what": _("What happened"),
        "situation": _("The situation"),
        "public": _("As a spectator saw it"),
        "ishida": _("As Ishida saw it"),
        "tokugawa": _("As Tokugawa saw it"),
    }
