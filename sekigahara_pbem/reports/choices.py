"""The decision asked of a player and its legal options, in plain English, each with the
action to paste into a turn file (YAML, wrapped to fit a terminal and still valid when
pasted under `actions:`)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import cast

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..rules.combat.deploy import deployment_impacts
from ..rules.components import Components
from ..rules.state_types import Fight
from . import names as n
from .events import impact_sum, level_text
from .shapes import ANY, BLOCK, OPTIONS, fits, list_of, record

YAML_WIDTH = 68  # an option's flow YAML; indented under its number it fits 80 columns


DECISIONS = {  # every kind of decision (rules/decisions), tests/test_wording_tables.py
    "discard": N_("discard {cards}, half your hand rounded down, face down (6.2)"),
    "bid": N_(
        "bid one card face down; the higher number wins the bid and chooses the first player (6.3)"
    ),
    "choose_first": N_("you won the bid: choose the first player for this week (6.3)"),
    "movement": N_(
        "your Movement Phase: choose the movement level, then muster, bring Mōri blocks and "
        "move stacks, one action at a time, then end the phase (7)"
    ),
    "declare": N_("choose where to fight next (8.1)"),
    "castle": N_(
        "your castle at {where} is attacked: stay inside (a siege) or come out and fight a "
        "battle (8.9.2)"
    ),
    "deploy": N_("combat at {where}: deploy a block, or finish (8.5)"),
    "challenge": N_(
        "combat at {where}: challenge the loyalty of the deployment just made, or decline (8.6)"
    ),
    "losses": N_("combat at {where}: choose the units you lose (8.7.2, 8.9.4)"),
    "retreat": N_("you lost the battle at {where}: choose where your force retreats (8.8)"),
}


def decision_text(asked: dict, view: dict, comp: Components) -> str:
    """What the decision is and which rule governs it."""
    kind = asked.get("decision")
    where = n.loc(comp, asked["location"]) if asked.get("location") else ""
    if isinstance(kind, str) and kind in DECISIONS:
        count = asked.get("count")  # the discard's
        cards = n.count(count, "card") if type(count) is int else ""
        return _(DECISIONS[kind]).format(where=where, cards=cards)
    if where:
        return _("{decision} at {where}").format(decision=kind, where=where)
    return str(kind)


GROUPS = {
    "level": N_("Movement level (7.1)"),
    "mori": N_("From the Mōri Box (9.3)"),
    "muster": N_("Muster from your Recruitment Box (7.2)"),
    "end_movement": N_("End of movement"),
}


def group_of(option: dict, comp: Components) -> str:
    """A heading that options of one kind share (empty: no heading)."""
    kind = option.get("type")
    if kind == "move":
        return _("Stack moves from {where} (7.3)").format(where=n.loc(comp, option.get("from")))
    return _(GROUPS[kind]) if kind in GROUPS else ""


def describe_option(option: dict, comp: Components, view: dict, side: str) -> str:
    """One legal option as a sentence; one of an unknown kind, or not of its kind's shape
    (reports/shapes.py), as its YAML."""
    if fits(option, OPTIONS, comp):
        return OPTION_DESCRIBERS[option["type"]](option, comp, view, side)
    kind = option.get("type") if isinstance(option, dict) else None
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
    if keep:
        return _("Discard {cards}; keep {kept}").format(
            cards=n.listing(o["cards"]), kept=n.listing(keep)
        )
    return _("Discard {cards}").format(cards=n.listing(o["cards"]))


def _bid(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("Bid {card}").format(card=n.card(comp, o["card"]))


def _choose_first(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("{side} moves first in both turns this week").format(side=n.side(o["first"]))


def _level(o: dict, comp: Components, view: dict, side: str) -> str:
    if o["level"] == "none" and o.get("cards"):
        return _("No movement: {cards} discarded, as many drawn (7.1)").format(
            cards=n.listing(o["cards"])
        )
    if o["level"] == "none":
        return _("No movement (you may instead name cards to discard and redraw as many)")
    text = level_text(o["level"])
    text = text[:1].upper() + text[1:]
    if o.get("cards"):
        return _("{level}, paying {cards}").format(level=text, cards=n.listing(o["cards"]))
    return _("{level}, free").format(level=text)


def _end_movement(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("End your Movement Phase; your Combat Phase follows (8.1)")


def _muster(o: dict, comp: Components, view: dict, side: str) -> str:
    if o["option"] == "A":
        text = _("Muster {blocks} at {where} (option A, shown to the enemy)")
    else:
        text = _("Muster {blocks} at {where} (option B, unseen)")
    return text.format(blocks=n.listing(o["blocks"]), where=n.loc(comp, o["to"]))


def _mori(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("Bring {blocks} to {where}, discarding {cards}").format(
        blocks=n.listing(o["blocks"]),
        where=n.loc(comp, comp.mori_entry),
        cards=n.listing(o["cards"]),
    )


def _move(o: dict, comp: Components, view: dict, side: str) -> str:
    parts = []
    for g in o["groups"]:
        words = {"blocks": n.listing(g["blocks"]), "path": n.path(comp, g["path"])}
        if g.get("force_march"):
            text = _("{blocks} along {path} (force march, discarding {card})")
            parts.append(text.format(card=g["force_march"], **words))
        else:
            parts.append(_("{blocks} along {path}").format(**words))
    if o.get("leader"):
        text = _("Move {groups}; leader {leader} gives +1")
        return text.format(groups="; ".join(parts), leader=o["leader"])
    return _("Move {groups}").format(groups="; ".join(parts))


def _declare(o: dict, comp: Components, view: dict, side: str) -> str:
    counts = view.get("stacks", {}).get(o["location"], {})
    sizes = ", ".join(f"{n.side(s)} {counts[s]}" for s in n.SIDE_NAMES if counts.get(s))
    return _("Fight at {where} next ({sizes})").format(
        where=n.loc(comp, o["location"]), sizes=sizes
    )


def _castle(o: dict, comp: Components, view: dict, side: str) -> str:
    if o["inside"] and view.get("active") == side:
        return _("Stay inside the castle: no combat here this phase (8.9.2)")
    if o["inside"]:
        return _("Stay inside the castle: a siege, only the attacker deploys (8.9.4)")
    return _("Come out and fight a battle (8.2)")


DEPLOYMENT = record(blocks=list_of(BLOCK), **{"for": ANY})  # a deployment in the view


def _deploy(o: dict, comp: Components, view: dict, side: str) -> str:
    """The impact the deploy handler will add (rules/combat/deploy.py), on the fight of
    `view`: in `seki play`, the view of the turn so far (play/console.py)."""
    fight = (view.get("combat") or {}).get("fight") or {}
    table = {
        "kind": fight.get("kind"),
        "deployments": [d for d in fight.get("deployments", []) if DEPLOYMENT(d, comp)],
    }
    # a cast: the table is no whole fight, only the parts of one deployment_impacts reads
    # (its kind and deployments, rules/combat/deploy.py), which is all the view shows
    impacts = deployment_impacts(comp, cast(Fight, table), side, o.get("card"), o["blocks"])
    words = {
        "blocks": n.blocks(comp, o["blocks"]),
        "impact": impact_sum([asdict(imp) for imp in impacts]),
    }
    if o.get("card"):
        return _("Deploy {blocks} with {card}: impact {impact}").format(card=o["card"], **words)
    return _("Deploy {blocks} without a card (leader, 8.2.4): impact {impact}").format(**words)


def _finish(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("Finish: deploy no more in this combat (8.5)")


def _challenge(o: dict, comp: Components, view: dict, side: str) -> str:
    fight = (view.get("combat") or {}).get("fight") or {}
    made = (fight.get("deployments") or [{}])[-1]
    k = len(made["blocks"]) if DEPLOYMENT(made, comp) else 1  # the deployment challenged
    text = ngettext(
        "Challenge with {card}: unless refuted, the block defects to you (8.6)",
        "Challenge with {card}: unless refuted, both blocks defect to you (8.6.3)",
        k,
    )
    return text.format(card=o["card"])


def _decline(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("Let the deployment stand (no challenge)")


def _losses(o: dict, comp: Components, view: dict, side: str) -> str:
    return _("Lose {units}").format(units=n.listing([n.unit(comp, u) for u in o["units"]]))


def _retreat(o: dict, comp: Components, view: dict, side: str) -> str:
    stay = ""
    if o.get("castle"):
        stay = _("{blocks} into the castle").format(blocks=n.listing(o["castle"]))
    if o.get("to") is None:
        return _("Retreat every block into the castle: {stay}").format(stay=stay)
    where = n.loc(comp, o["to"])
    if stay:
        return _("Retreat the rest to {where}; {stay}").format(where=where, stay=stay)
    return _("Retreat the whole force to {where}").format(where=where)


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
