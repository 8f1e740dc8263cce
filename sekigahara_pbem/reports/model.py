"""What a report says, as plain data for the text and HTML templates: built from one view
(a side's or the public's), that record's events as the reader may see them, and, for a
player, the legal options of the decision asked.

Nothing here reads a full state: a report can only repeat what its view and events hold.
An empty view (an old record whose public view is not kept) gives the events alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import words
from ..i18n import N_
from ..i18n import gettext as _
from ..rules.components import Components
from ..rules.vocab import LAST_WEEK, LEVEL_WORDS
from . import choices
from . import names as n
from .events import describe

MAX_OPTIONS_SHOWN = 30  # in the text report, unless all options are asked for


@dataclass(frozen=True)
class Reader:
    """A player reading its packet's report: its side, the options its packet lists, its
    turn file's header (None: nothing asked of it), and (seq, events) of the records
    before it since its last turn, told first, in order."""

    side: str
    options: list
    template: str | None = None
    earlier: Sequence[tuple[int, list]] = ()


def build(
    game_id: str, seq: int, view: dict, events: list, comp: Components, reader: Reader | None = None
) -> dict:
    """The report of record `seq` for its `reader` (None: the public)."""
    side = reader.side if reader is not None else None
    options = reader.options if reader is not None else []
    template = reader.template if reader is not None else None
    earlier = reader.earlier if reader is not None else ()
    own = view.get("own") if side is not None else None
    own_at = {b: loc for loc, bs in (own or {}).get("blocks", {}).items() for b in bs}
    report = {
        "game": game_id,
        "seq": seq,
        "side": side,
        "side_name": n.side(side) if side else None,
        "has_view": bool(view),
        "events": [describe(e, comp, own_at) for e in events],
        "story": [
            {"seq": n, "events": [describe(e, comp, own_at) for e in told]} for n, told in earlier
        ],
    }
    if not view:
        return report
    report.update(
        situation(view, comp),
        result=_result(view),
        phase=_phase(view, comp),
        combat=_combat(view, comp),
        castles=_castles(view, comp),
        resources=_resources(view, comp),
        own=_own(own, comp) if own else None,
        stacks=_stacks(view, comp, own),
        waiting=_waiting(view, comp),
    )
    asked = next((d for d in view["pending"] if d["side"] == side), None) if side else None
    # `and side` changes nothing (`asked` is looked for only with a side): it says so to mypy
    report["asked"] = _asked(asked, view, comp, side, options) if asked and side else None
    report["template"] = _template_header(template) if asked and template else None
    return report


def situation(view: dict, comp: Components) -> dict:
    """The game at a glance, from a view: the week, turn and step, the first player, the
    points (2.2) and the castles and resources each side holds, each side's cards and
    blocks off the map (hand, deck, discards, bag, Recruitment Box) and the Mōri Box and
    the eliminated; the report's words, and the panel beside the page's map
    (web/moment.py)."""
    return {
        "when": _when(view),
        "first": _first(view),
        "points": ", ".join(f"{n.side(s)} {v}" for s, v in view["points"].items()),
        "held": [
            (_("Castles (2 points each)"), _tally(view["castles"].values())),
            (_("Resource locations (1 point each)"), _tally(_controlled(view, comp))),
        ],
        "counts": _counts(view),
        "boxes": _boxes(view, comp),
    }


def glance(shown: dict) -> list[str]:
    """A `situation`'s lines of text: the moment, the first player, the points and what
    each side holds (the page's panel and the replay's)."""
    lines = [shown["when"], shown["first"], _("Victory points: %(points)s") % shown]
    lines += [f"{name}: {counts}" for name, counts in shown["held"]]
    return [line for line in lines if line]


ACTIVE_STEPS = {
    "movement": N_("{side}'s Movement Phase"),
    "combat": N_("{side}'s Combat Phase"),
}


def _when(v: dict) -> str:
    key = v["step"]
    step = n.step(key)
    if key in ACTIVE_STEPS and v.get("active"):
        step = _(ACTIVE_STEPS[key]).format(side=n.side(v["active"]))
    text = _("Week {week} of {last}, turn {turn}: {step}")
    return text.format(week=v["week"], last=LAST_WEEK, turn=v["turn"], step=step)


def _first(v: dict) -> str | None:
    first, winner = v.get("first"), v.get("bid_winner")
    if first and winner:
        text = _("First player this week: {first}; bid won by {winner}")
        return text.format(first=n.side(first), winner=n.side(winner))
    if first:
        return _("First player this week: {first}").format(first=n.side(first))
    if winner:
        return _("Bid won by {winner}").format(winner=n.side(winner))
    return None


def _result(v: dict) -> str | None:
    r = v.get("result")
    if not r:
        return None
    return _("GAME OVER: {result}").format(result=words.outcome(r))


def _phase(v: dict, comp: Components) -> str | None:
    phase = v.get("phase")
    if not phase or v["step"] not in ("movement", "combat") or not v.get("active"):
        return None
    who = n.side(v["active"])
    if phase["level"] is None:
        return _("{side} has not chosen a movement level yet (7.1)").format(side=who)
    left = phase["moves_left"]
    if left is None:
        moves = _("every stack may move")
    else:
        moves = _("{moves} left").format(moves=n.count(left, "stack move"))
    mustered = _("has mustered") if phase["mustered"] else _("has not mustered")
    level = phase["level"]
    text = _("{side}: {level} movement, {moves}, {mustered} (7.1, 7.2)").format(
        side=who,
        level=_(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level,
        moves=moves,
        mustered=mustered,
    )
    if phase["sources"]:
        places = n.listing([n.loc(comp, s) for s in phase["sources"]])
        text += "; " + _("stacks moved from {places}").format(places=places)
    return text


STAGES = {
    "castle": N_("the castle's owner: inside or outside (8.9.2)"),
    "deploy": N_("a deployment or a finish (8.5)"),
    "challenge": N_("a Loyalty Challenge or not (8.6)"),
    "losses": N_("the choice of losses (8.7.2)"),
    "retreat": N_("the retreat (8.8)"),
}


def _combat(v: dict, comp: Components) -> list[str] | None:
    combat = v.get("combat")
    if not combat:
        return None
    lines = []
    if combat.get("resolved"):
        done = n.listing([n.loc(comp, x) for x in combat["resolved"]])
        text = _("{side}'s Combat Phase; fought or declared: {places}")
        lines.append(text.format(side=n.side(combat["side"]), places=done))
    fight = combat.get("fight")
    if not fight:
        return lines or None
    lines.append(_fight_line(fight, comp))
    for d in fight.get("deployments", []):
        words = {
            "side": n.side(d["side"]),
            "blocks": n.blocks(comp, d["blocks"]),
            "card": d["card"] or _("no card"),
        }
        if d["for"] != d["side"]:
            text = _("deployed by {side}: {blocks} with {card}, now fighting for {other}")
            lines.append(text.format(other=n.side(d["for"]), **words))
        else:
            lines.append(_("deployed by {side}: {blocks} with {card}").format(**words))
    if fight.get("impact"):
        impact = ", ".join(f"{n.side(s)} {i}" for s, i in fight["impact"].items())
        lines.append(_("impact: {totals}").format(totals=impact))
    if fight.get("disks"):
        lines.append(_("disks inside: {disks}").format(disks=n.listing(fight["disks"])))
    if fight.get("finished"):
        sides = n.listing([n.side(s) for s in fight["finished"]])
        lines.append(_("finished deploying: {sides}").format(sides=sides))
    if fight.get("lost"):
        for s, units in fight["lost"].items():
            if units:
                text = _("lost by {side}: {units}")
                lines.append(text.format(side=n.side(s), units=n.listing(units)))
    stage = fight.get("stage")
    stage_text = _(STAGES[stage]) if stage in STAGES else stage
    lines.append(_("waiting for {stage}").format(stage=stage_text))
    return lines


FIGHT_KINDS = {"battle": N_("battle"), "siege": N_("siege")}


def _fight_line(fight: dict, comp: Components) -> str:
    kind = fight.get("kind")
    if kind:
        kind = _(FIGHT_KINDS[kind]) if kind in FIGHT_KINDS else kind
    else:
        kind = _("to be decided (inside or outside the castle)")
    forces = fight.get("forces") or {}
    sizes = ", ".join(f"{n.side(s)} {n.count(c, 'block')}" for s, c in forces.items())
    words = {"where": n.loc(comp, fight["location"]), "kind": kind,
             "attacker": n.side(fight["attacker"])}  # fmt: skip
    if sizes:
        text = _("Fight at {where}: {kind}; {attacker} attacks ({sizes})")
        return text.format(sizes=sizes, **words)
    return _("Fight at {where}: {kind}; {attacker} attacks").format(**words)


def _by_side(items: dict, comp: Components) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for loc, s in sorted(items.items(), key=lambda kv: n.alphabetical(n.loc(comp, kv[0]))):
        out.setdefault(s, []).append(n.loc(comp, loc))
    return out


def _tally(holders: Iterable[str]) -> str:
    """'Ishida 3, Tokugawa 4': how many of the items each side holds."""
    held = list(holders)
    return ", ".join(f"{n.side(s)} {held.count(s)}" for s in n.SIDE_NAMES)


def _controlled(v: dict, comp: Components) -> list[str]:
    """The side controlling each resource location that has one (4.2)."""
    return [s for loc, s in v["control"].items() if comp.locations[loc].resource]


def _held(by_side: dict[str, list[str]]) -> list[str]:
    """'Ishida 3: A, B, C' per side."""
    return [
        f"{n.side(s)} {len(by_side.get(s, []))}: {', '.join(by_side.get(s, [])) or '-'}"
        for s in n.SIDE_NAMES
    ]


def _castles(v: dict, comp: Components) -> list[str]:
    lines = _held(_by_side(v["castles"], comp))
    for loc, s in sorted(v.get("besieged", {}).items()):
        text = _("{where}: {side} besieged inside (8.9.6)")
        lines.append(text.format(where=n.loc(comp, loc), side=n.side(s)))
    return lines


def _resources(v: dict, comp: Components) -> list[str]:
    resources = [loc for loc, spec in comp.locations.items() if spec.resource]
    lines = _held(_by_side({r: v["control"][r] for r in resources if r in v["control"]}, comp))
    free = sorted((n.loc(comp, r) for r in resources if r not in v["control"]), key=n.alphabetical)
    if free:
        lines.append(f"{n.side('nobody')} {len(free)}: {', '.join(free)}")
    return lines


def _counts(v: dict) -> list[dict]:
    return [
        {
            "side": n.side(s),
            "hand": v["hands"][s],
            "deck": v["decks"][s],
            "discard": v["discards"][s],
            "bag": v["bags"][s],
            "recruit": v["recruit"][s],
        }
        for s in n.SIDE_NAMES
    ]


def _boxes(v: dict, comp: Components) -> list[tuple[str, str]]:
    boxes = []
    if v.get("mori_box"):
        boxes.append((_("Mōri Box"), n.blocks(comp, v["mori_box"])))
    if v.get("eliminated"):
        boxes.append((_("Eliminated blocks"), ", ".join(v["eliminated"])))
    if v.get("disks_eliminated"):
        boxes.append((_("Eliminated disks"), ", ".join(v["disks_eliminated"])))
    return boxes


def _own(own: dict, comp: Components) -> dict:
    on_map = sum(len(bs) for bs in own.get("blocks", {}).values())
    lines = []
    if own.get("moved"):
        lines.append(_("moved this turn: {blocks} (7.3.1)").format(blocks=n.listing(own["moved"])))
    if own.get("arrived"):
        text = _("arrived this turn, cannot move: {blocks} (7.2, 9.3)")
        lines.append(text.format(blocks=n.listing(own["arrived"])))
    if own.get("plan") is not None:
        plan = choices.flow_yaml(own["plan"], 10**6)[0]
        lines.append(_("your battle plan on file: {plan}").format(plan=plan))
    if own.get("sealed") is not None:
        sealed = own["sealed"]
        sealed = n.listing(sealed) if isinstance(sealed, list) else sealed
        lines.append(_("your sealed choice: {sealed}").format(sealed=sealed))
    return {
        "hand": [n.card(comp, c) for c in own.get("hand", [])],
        "recruit": [n.block(comp, b) for b in own.get("recruit", [])],
        "bag": list(own.get("bag", [])),
        "on_map": on_map,
        "notes": lines,
    }


def _stacks(v: dict, comp: Components, own: dict | None) -> list[dict]:
    """The map in words: every place with pieces, and every castle even empty (4.3: it
    counts for its colour), each with the roads that leave it (the text map had none)."""
    mine = (own or {}).get("blocks", {})
    me = (own or {}).get("side")
    rows = []
    castles = [loc for loc, spec in comp.locations.items() if spec.castle]
    for loc in [*v["stacks"], *(c for c in castles if c not in v["stacks"])]:
        counts = v["stacks"].get(loc, {})
        spec = comp.locations.get(loc)
        tags = []
        if spec is not None and spec.castle:
            holder = v["castles"].get(loc)
            text = _("castle ({colour}) of {side}")
            tags.append(text.format(colour=n.colour(spec.castle), side=n.side(holder)))
        if loc in v.get("besieged", {}):
            tags.append(_("{side} besieged").format(side=n.side(v["besieged"][loc])))
        if spec is not None and spec.resource:
            text = _("resource of {side}")
            tags.append(text.format(side=n.side(v["control"].get(loc, "nobody"))))
        sides = []
        for s in n.SIDE_NAMES:
            if s == me and mine.get(loc):
                sides.append(f"{n.side(s)}: " + ", ".join(_short(comp, b) for b in mine[loc]))
            elif counts.get(s):
                sides.append(f"{n.side(s)} {n.count(counts[s], 'block')}")
        if counts.get("disks"):
            sides.append(_("disks {disks}").format(disks=", ".join(counts["disks"])))
        rows.append(
            {"name": n.loc(comp, loc), "tags": tags, "sides": sides or [_("empty")],
             "roads": _roads(comp, loc)}
        )  # fmt: skip
    return sorted(rows, key=lambda r: n.alphabetical(r["name"]))


def _roads(comp: Components, loc: str) -> str:
    """'roads to Kyoto (highway), Minakuchi': where a stack there can step (7.3)."""
    if loc not in comp.adjacent:
        return ""
    names = [
        _("{place} (highway)").format(place=n.loc(comp, b)) if comp.road(loc, b) else n.loc(comp, b)
        for b in sorted(comp.adjacent[loc], key=lambda b: n.alphabetical(n.loc(comp, b)))
    ]
    return _("roads to {places}").format(places=", ".join(names))


def _short(comp: Components, block_id: str) -> str:
    """'ukita-3a 3', 'ukita-gun 1 gun', 'ukita-leader 1 L': compact for the map list."""
    spec = comp.blocks.get(block_id)
    if spec is None:
        return block_id
    marks = [str(spec.mon)]
    if spec.ability:
        marks.append(_(n.MARKS.get(spec.ability, spec.ability)))
    if spec.leader:
        role = "protagonist" if spec.leader == 3 else "leader"  # not in _(): no message id
        marks.append(_(n.MARKS[role]))
    return f"{block_id} {' '.join(marks)}"


def _waiting(v: dict, comp: Components) -> str:
    if not v["pending"]:
        return _("nobody, the game is over")
    parts = []
    for d in v["pending"]:
        words = {"side": n.side(d["side"]), "decision": n.decision(d["decision"])}
        if d.get("location"):
            text = _("{side} ({decision} at {where})")
            parts.append(text.format(where=n.loc(comp, d["location"]), **words))
        else:
            parts.append(_("{side} ({decision})").format(**words))
    return n.listing(parts)


def _asked(asked: dict, view: dict, comp: Components, side: str, options: list) -> dict:
    items = []
    heading = None
    for i, option in enumerate(options, 1):
        group = choices.group_of(option, comp) if isinstance(option, dict) else ""
        items.append(
            {
                "number": i,
                "group": group if group != heading else "",
                "text": choices.describe_option(option, comp, view, side)
                if isinstance(option, dict)
                else str(option),
                "yaml": choices.pasteable(option, ""),
            }
        )
        heading = group
    return {
        "decision": n.decision(asked.get("decision")),
        "text": _capital(choices.decision_text(asked, view, comp)),
        "options": items,
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _template_header(template: str) -> list[str]:
    """The turn file's own lines (not its comments, which list the options the report
    already shows, unwrapped)."""
    return [line for line in template.splitlines() if line and not line.startswith("#")]
