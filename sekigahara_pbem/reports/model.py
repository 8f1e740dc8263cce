"""What a report says, as plain data for the text and HTML templates: built from one view
(a side's or the public's), that record's events as the reader may see them, and, for a
player, the legal options of the decision asked.

Nothing here reads a full state: a report can only repeat what its view and events hold.
An empty view (an old record whose public view is not kept) gives the events alone.
"""

from __future__ import annotations

from ..component_files import load_components
from ..rules.components import Components
from ..rules.vocab import LAST_WEEK
from . import choices
from . import names as n
from .events import describe

MAX_OPTIONS_SHOWN = 30  # in the text report, unless all options are asked for


def build(
    game_id: str,
    seq: int,
    view: dict,
    events: list,
    side: str | None = None,
    options: list | None = None,
    template: str | None = None,
) -> dict:
    """The report of record `seq` for `side` (None: the public)."""
    comp = load_components()
    own = view.get("own") if side is not None else None
    own_at = {b: loc for loc, bs in (own or {}).get("blocks", {}).items() for b in bs}
    report = {
        "game": game_id,
        "seq": seq,
        "side": side,
        "side_name": n.side(side) if side else None,
        "has_view": bool(view),
        "events": [describe(e, comp, own_at) for e in events],
    }
    if not view:
        return report
    report.update(
        when=_when(view),
        first=_first(view),
        result=_result(view),
        phase=_phase(view, comp),
        combat=_combat(view, comp),
        points=", ".join(f"{n.side(s)} {v}" for s, v in view["points"].items()),
        castles=_castles(view, comp),
        resources=_resources(view, comp),
        counts=_counts(view),
        boxes=_boxes(view, comp),
        own=_own(own, comp) if own else None,
        stacks=_stacks(view, comp, own),
        waiting=_waiting(view, comp),
    )
    asked = next((d for d in view["pending"] if d["side"] == side), None) if side else None
    report["asked"] = _asked(asked, view, comp, side, options or []) if asked else None
    report["template"] = _template_header(template) if asked and template else None
    return report


def _when(v: dict) -> str:
    step = n.STEP_NAMES.get(v["step"], v["step"])
    if v["step"] in ("movement", "combat") and v.get("active"):
        step = f"{n.side(v['active'])}'s {step}"
    return f"Week {v['week']} of {LAST_WEEK}, turn {v['turn']}: {step}"


def _first(v: dict) -> str | None:
    if not v.get("first") and not v.get("bid_winner"):
        return None
    parts = []
    if v.get("first"):
        parts.append(f"first player this week: {n.side(v['first'])}")
    if v.get("bid_winner"):
        parts.append(f"bid won by {n.side(v['bid_winner'])}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:]


def _result(v: dict) -> str | None:
    r = v.get("result")
    if not r:
        return None
    how = r.get("how", "")
    if how == "points" and isinstance(r.get("points"), dict):
        how = "on points: " + ", ".join(f"{n.side(s)} {p}" for s, p in r["points"].items())
    reason = f": {r['reason']}" if r.get("reason") else ""
    rule = f" (rule {r['rule']})" if r.get("rule") else ""
    return f"GAME OVER: {n.side(r.get('winner'))} wins {how}{reason}{rule}"


def _phase(v: dict, comp: Components) -> str | None:
    phase = v.get("phase")
    if not phase or v["step"] not in ("movement", "combat") or not v.get("active"):
        return None
    who = n.side(v["active"])
    if phase["level"] is None:
        return f"{who} has not chosen a movement level yet (7.1)"
    left = phase["moves_left"]
    moves = "every stack may move" if left is None else f"{n.plural(left, 'stack move')} left"
    mustered = "has mustered" if phase["mustered"] else "has not mustered"
    moved = (
        f"; stacks moved from {n.listing([n.loc(comp, s) for s in phase['sources']])}"
        if phase["sources"]
        else ""
    )
    return f"{who}: {phase['level']} movement, {moves}, {mustered} (7.1, 7.2){moved}"


STAGES = {
    "castle": "the castle's owner: inside or outside (8.9.2)",
    "deploy": "a deployment or a finish (8.5)",
    "challenge": "a Loyalty Challenge or not (8.6)",
    "losses": "the choice of losses (8.7.2)",
    "retreat": "the retreat (8.8)",
}


def _combat(v: dict, comp: Components) -> list[str] | None:
    combat = v.get("combat")
    if not combat:
        return None
    lines = []
    if combat.get("resolved"):
        done = n.listing([n.loc(comp, x) for x in combat["resolved"]])
        lines.append(f"{n.side(combat['side'])}'s Combat Phase; fought or declared: {done}")
    fight = combat.get("fight")
    if not fight:
        return lines or None
    where = n.loc(comp, fight["location"])
    kind = fight.get("kind") or "to be decided (inside or outside the castle)"
    forces = fight.get("forces") or {}
    sizes = ", ".join(f"{n.side(s)} {n.plural(c, 'block')}" for s, c in forces.items())
    lines.append(
        f"Fight at {where}: {kind}; {n.side(fight['attacker'])} attacks"
        + (f" ({sizes})" if sizes else "")
    )
    for d in fight.get("deployments", []):
        card = d["card"] or "no card"
        turned = f", now fighting for {n.side(d['for'])}" if d["for"] != d["side"] else ""
        lines.append(
            f"deployed by {n.side(d['side'])}: {n.blocks(comp, d['blocks'])} with {card}{turned}"
        )
    if fight.get("impact"):
        lines.append(f"impact: {', '.join(f'{n.side(s)} {i}' for s, i in fight['impact'].items())}")
    if fight.get("disks"):
        lines.append(f"disks inside: {n.listing(fight['disks'])}")
    if fight.get("finished"):
        lines.append(f"finished deploying: {n.listing([n.side(s) for s in fight['finished']])}")
    if fight.get("lost"):
        for s, units in fight["lost"].items():
            if units:
                lines.append(f"lost by {n.side(s)}: {n.listing(units)}")
    lines.append(f"waiting for {STAGES.get(fight.get('stage'), fight.get('stage'))}")
    return lines


def _by_side(items: dict, comp: Components) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for loc, s in sorted(items.items(), key=lambda kv: n.alphabetical(n.loc(comp, kv[0]))):
        out.setdefault(s, []).append(n.loc(comp, loc))
    return out


def _held(by_side: dict[str, list[str]]) -> list[str]:
    """'Ishida 3: A, B, C' per side."""
    return [
        f"{n.side(s)} {len(by_side.get(s, []))}: {', '.join(by_side.get(s, [])) or '-'}"
        for s in n.SIDE_NAMES
    ]


def _castles(v: dict, comp: Components) -> list[str]:
    lines = _held(_by_side(v["castles"], comp))
    for loc, s in sorted(v.get("besieged", {}).items()):
        lines.append(f"{n.loc(comp, loc)}: {n.side(s)} besieged inside (8.9.6)")
    return lines


def _resources(v: dict, comp: Components) -> list[str]:
    resources = [loc for loc, spec in comp.locations.items() if spec.resource]
    lines = _held(_by_side({r: v["control"][r] for r in resources if r in v["control"]}, comp))
    free = sorted((n.loc(comp, r) for r in resources if r not in v["control"]), key=n.alphabetical)
    if free:
        lines.append(f"nobody {len(free)}: {', '.join(free)}")
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
        boxes.append(("Mōri Box", n.blocks(comp, v["mori_box"])))
    if v.get("eliminated"):
        boxes.append(("Eliminated blocks", ", ".join(v["eliminated"])))
    if v.get("disks_eliminated"):
        boxes.append(("Eliminated disks", ", ".join(v["disks_eliminated"])))
    return boxes


def _own(own: dict, comp: Components) -> dict:
    on_map = sum(len(bs) for bs in own.get("blocks", {}).values())
    lines = []
    if own.get("moved"):
        lines.append(f"moved this turn: {n.listing(own['moved'])} (7.3.1)")
    if own.get("arrived"):
        lines.append(f"arrived this turn, cannot move: {n.listing(own['arrived'])} (7.2, 9.3)")
    if own.get("plan") is not None:
        lines.append(f"your battle plan on file: {choices.flow_yaml(own['plan'], 10**6)[0]}")
    if own.get("sealed") is not None:
        sealed = own["sealed"]
        sealed = n.listing(sealed) if isinstance(sealed, list) else sealed
        lines.append(f"your sealed choice: {sealed}")
    return {
        "hand": [n.card(comp, c) for c in own.get("hand", [])],
        "recruit": [n.block(comp, b) for b in own.get("recruit", [])],
        "bag": list(own.get("bag", [])),
        "on_map": on_map,
        "notes": lines,
    }


def _stacks(v: dict, comp: Components, own: dict | None) -> list[dict]:
    mine = (own or {}).get("blocks", {})
    me = (own or {}).get("side")
    rows = []
    for loc, counts in v["stacks"].items():
        spec = comp.locations.get(loc)
        tags = []
        if spec is not None and spec.castle:
            holder = v["castles"].get(loc)
            tags.append(f"castle ({n.SIDE_COLOURS.get(spec.castle)}) of {n.side(holder)}")
        if loc in v.get("besieged", {}):
            tags.append(f"{n.side(v['besieged'][loc])} besieged")
        if spec is not None and spec.resource:
            tags.append(f"resource of {n.side(v['control'].get(loc, 'nobody'))}")
        sides = []
        for s in n.SIDE_NAMES:
            if s == me and mine.get(loc):
                sides.append(f"{n.side(s)}: " + ", ".join(_short(comp, b) for b in mine[loc]))
            elif counts.get(s):
                sides.append(f"{n.side(s)} {n.plural(counts[s], 'block')}")
        if counts.get("disks"):
            sides.append("disks " + ", ".join(counts["disks"]))
        rows.append({"name": n.loc(comp, loc), "tags": tags, "sides": sides})
    return sorted(rows, key=lambda r: n.alphabetical(r["name"]))


def _short(comp: Components, block_id: str) -> str:
    """'ukita-3a 3', 'ukita-gun 1 gun', 'ukita-leader 1 L': compact for the map list."""
    spec = comp.blocks.get(block_id)
    if spec is None:
        return block_id
    marks = [str(spec.mon)]
    if spec.ability:
        marks.append(spec.ability[:3])
    if spec.leader:
        marks.append("P" if spec.leader == 3 else "L")
    return f"{block_id} {' '.join(marks)}"


def _waiting(v: dict, comp: Components) -> str:
    if not v["pending"]:
        return "nobody, the game is over"
    parts = []
    for d in v["pending"]:
        where = f" at {n.loc(comp, d['location'])}" if d.get("location") else ""
        parts.append(f"{n.side(d['side'])} ({d['decision']}{where})")
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
        "decision": asked.get("decision"),
        "text": _capital(choices.decision_text(asked, view, comp)),
        "options": items,
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _template_header(template: str) -> list[str]:
    """The turn file's own lines (not its comments, which list the options the report
    already shows, unwrapped)."""
    return [line for line in template.splitlines() if line and not line.startswith("#")]
