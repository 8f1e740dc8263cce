"""The decision asked of a player and its legal options, in plain English, each with the
action to paste into a turn file (YAML, wrapped to fit a terminal and still valid when
pasted under `actions:`)."""

from __future__ import annotations

import json
import re

from ..rules.combat.impact import deployment_impact
from ..rules.components import Components
from . import names as n
from .events import LEVEL_TEXT, impact_sum

YAML_WIDTH = 68  # an option's flow YAML; indented under its number it fits 80 columns


def decision_text(asked: dict, view: dict, comp: Components) -> str:
    """What the decision is and which rule governs it."""
    kind = asked.get("decision")
    where = n.loc(comp, asked["location"]) if asked.get("location") else ""
    texts = {
        "discard": f"discard {n.plural(asked.get('count', 0), 'card')}, half your hand "
        "rounded down, face down (6.2)",
        "bid": "bid one card face down; the higher number wins the bid and chooses the first "
        "player (6.3)",
        "choose_first": "you won the bid: choose the first player for this week (6.3)",
        "movement": "your Movement Phase: choose the movement level, then muster, bring Mōri "
        "blocks and move stacks, one action at a time, and end it with end_movement (7)",
        "declare": "choose where to fight next (8.1)",
        "castle": f"your castle at {where} is attacked: stay inside (a siege) or come out "
        "and fight a battle (8.9.2)",
        "deploy": f"combat at {where}: deploy a block, or finish (8.5)",
        "challenge": f"combat at {where}: challenge the loyalty of the deployment just made, "
        "or decline (8.6)",
        "losses": f"combat at {where}: choose the units you lose (8.7.2, 8.9.4)",
        "retreat": f"you lost the battle at {where}: choose where your force retreats (8.8)",
    }
    return texts.get(kind, f"{kind}{' at ' + where if where else ''}")


def group_of(option: dict, comp: Components) -> str:
    """A heading that options of one kind share (empty: no heading)."""
    kind = option.get("type")
    if kind == "move":
        return f"Stack moves from {n.loc(comp, option.get('from'))} (7.3)"
    return {
        "level": "Movement level (7.1)",
        "mori": "From the Mōri Box (9.3)",
        "muster": "Muster from your Recruitment Box (7.2)",
        "end_movement": "End of movement",
    }.get(kind, "")


def describe_option(option: dict, comp: Components, view: dict, side: str) -> str:
    """One legal option as a sentence; an unknown shape falls back to its YAML."""
    kind = option.get("type")
    describer = OPTION_DESCRIBERS.get(kind) if isinstance(kind, str) else None
    if describer is not None:
        try:
            return describer(option, comp, view, side)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass
    return f"{kind}: {flow_yaml(option)[0]}"


def flow_yaml(option: object, width: int = YAML_WIDTH) -> list[str]:
    """The action as flow-style YAML, `type` first, folded after commas into lines of at
    most `width` (a flow collection may span lines, so the folded text loads the same)."""
    if isinstance(option, dict) and "type" in option:
        option = {"type": option["type"], **{k: v for k, v in option.items() if k != "type"}}
    flat = _flow(option)
    if len(flat) <= width:
        return [flat]
    first, *rest = flat.split(", ")
    lines = [first]
    for piece in rest:
        if len(lines[-1]) + 2 + len(piece) <= width:
            lines[-1] += ", " + piece
        else:
            lines[-1] += ","
            lines.append(piece)
    return lines


PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"}


def _flow(value: object) -> str:
    """Flow YAML for plain data (options are small: ids, booleans, numbers); faster than
    yaml.safe_dump, which dominated rendering long option lists. A string that is not a
    plain id is written as JSON, which YAML reads as a double-quoted scalar."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str):
        plain = PLAIN.fullmatch(value) and value.lower() not in YAML_WORDS
        return value if plain else json.dumps(value, ensure_ascii=False)
    if value is None:
        return "null"
    return json.dumps(value)


def pasteable(option: object, indent: str = "  ") -> list[str]:
    """The action as it goes under 'actions:' in a turn file."""
    lines = flow_yaml(option)
    return [f"{indent}- {lines[0]}"] + [f"{indent}  {line}" for line in lines[1:]]


def _discard(o: dict, comp: Components, view: dict, side: str) -> str:
    keep = [c for c in view.get("own", {}).get("hand", []) if c not in o["cards"]]
    kept = f"; keep {n.listing(keep)}" if keep else ""
    return f"Discard {n.listing(o['cards'])}{kept}"


def _bid(o: dict, comp: Components, view: dict, side: str) -> str:
    return f"Bid {n.card(comp, o['card'])}"


def _choose_first(o: dict, comp: Components, view: dict, side: str) -> str:
    return f"{n.side(o['first'])} moves first in both turns this week"


def _level(o: dict, comp: Components, view: dict, side: str) -> str:
    text = LEVEL_TEXT.get(o["level"], o["level"])
    if o["level"] == "none":
        return "No movement (you may instead name cards to discard and redraw as many)"
    cost = f", paying {n.listing(o['cards'])}" if o.get("cards") else ", free"
    return f"{text[0].upper()}{text[1:]}{cost}"


def _end_movement(o: dict, comp: Components, view: dict, side: str) -> str:
    return "End your Movement Phase; your Combat Phase follows (8.1)"


def _muster(o: dict, comp: Components, view: dict, side: str) -> str:
    how = "option A, shown to the enemy" if o["option"] == "A" else "option B, unseen"
    return f"Muster {n.listing(o['blocks'])} at {n.loc(comp, o['to'])} ({how})"


def _mori(o: dict, comp: Components, view: dict, side: str) -> str:
    to = n.loc(comp, comp.mori_entry)
    return f"Bring {n.listing(o['blocks'])} to {to}, discarding {n.listing(o['cards'])}"


def _move(o: dict, comp: Components, view: dict, side: str) -> str:
    parts = []
    for g in o["groups"]:
        march = f" (force march, discarding {g['force_march']})" if g.get("force_march") else ""
        parts.append(f"{n.listing(g['blocks'])} along {n.path(comp, g['path'])}{march}")
    lead = f"; leader {o['leader']} gives +1" if o.get("leader") else ""
    return f"Move {'; '.join(parts)}{lead}"


def _declare(o: dict, comp: Components, view: dict, side: str) -> str:
    counts = view.get("stacks", {}).get(o["location"], {})
    sizes = ", ".join(f"{n.side(s)} {counts[s]}" for s in n.SIDE_NAMES if counts.get(s))
    return f"Fight at {n.loc(comp, o['location'])} next ({sizes})"


def _castle(o: dict, comp: Components, view: dict, side: str) -> str:
    if o["inside"]:
        return "Stay inside the castle: a siege, only the attacker deploys (8.9.4)"
    return "Come out and fight a battle (8.2)"


def _deploy(o: dict, comp: Components, view: dict, side: str) -> str:
    fight = (view.get("combat") or {}).get("fight") or {}
    already = [
        comp.blocks[b]
        for d in fight.get("deployments", [])
        if d["for"] == side
        for b in d["blocks"]
    ]
    card = comp.cards.get(o.get("card") or "")
    special = card is not None and card.kind == "swords" and fight.get("kind") != "siege"
    impacts = []
    for b in o["blocks"]:
        imp = deployment_impact(comp.blocks[b], already, special)
        impacts.append({"mon": imp.mon, "same_daimyo": imp.same_daimyo, "special": imp.special})
        already.append(comp.blocks[b])
    how = f"with {o['card']}" if o.get("card") else "without a card (leader, 8.2.4)"
    return f"Deploy {n.blocks(comp, o['blocks'])} {how}: impact {impact_sum(impacts)}"


def _finish(o: dict, comp: Components, view: dict, side: str) -> str:
    return "Finish: deploy no more in this combat (8.5)"


def _challenge(o: dict, comp: Components, view: dict, side: str) -> str:
    return f"Challenge with {o['card']}: unless refuted, the block(s) defect to you (8.6)"


def _decline(o: dict, comp: Components, view: dict, side: str) -> str:
    return "Let the deployment stand (no challenge)"


def _losses(o: dict, comp: Components, view: dict, side: str) -> str:
    return f"Lose {n.listing([n.unit(comp, u) for u in o['units']])}"


def _retreat(o: dict, comp: Components, view: dict, side: str) -> str:
    stay = f"{n.listing(o['castle'])} into the castle" if o.get("castle") else ""
    if o.get("to") is None:
        return f"Retreat every block into the castle: {stay}"
    rest = "the rest" if stay else "the whole force"
    return f"Retreat {rest} to {n.loc(comp, o['to'])}{'; ' + stay if stay else ''}"


OPTION_DESCRIBERS = {
    "discard": _discard,
    "bid": _bid,
    "choose_first": _choose_first,
    "level": _level,
    "end_movement": _end_movement,
    "muster": _muster,
    "mori": _mori,
    "move": _move,
    "declare": _declare,
    "castle": _castle,
    "deploy": _deploy,
    "finish": _finish,
    "challenge": _challenge,
    "decline": _decline,
    "losses": _losses,
    "retreat": _retreat,
}
