"""Battle plans: standing orders that answer a side's combat decisions for it (DESIGN.md,
"Turn files and decisions"; docs/protocol.md, "Battle plans"; docs/rulings.md).

Battles alternate between the sides on every deployment and Loyalty Challenge, so a
battle answered decision by decision costs dozens of mails. A side may file a plan at any
moment, replace it, or withdraw it (`plan: null`). After every decision the engine lets
the plan of the side asked answer, through the ordinary handlers (so every rule is
enforced), for as long as the plans reach; it stops where a plan says `ask`, does not
cover the case, or has no legal answer. A plan reads only what its side may see: its
hand and blocks, and the table.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from ..refusal import quoted
from .combat import aftermath
from .combat.deploy import deployment_impacts
from .components import Components
from .fields import MAX_LIST
from .state import clone
from .state_types import Fight, State
from .vocab import (
    N_,
    SIEGE,
    Malformed,
    Phrase,
    other,
)

ASK, ANY = "ask", "any"
FEWEST_MON = "fewest_mon"  # a loss order by strength (8.7.2); `any` puts leaders last
PROTAGONIST_DOTS = 3  # Ishida Mitsunari's and Tokugawa Ieyasu's nobori (3.2)
SECTION_KEYS = ("castle", "deploy", "stop", "challenge", "losses", "retreat")
SIEGE_KEYS = ("deploy", "stop")  # the orders a plan may give for sieges apart (8.9.4)
PLAN_KEYS = (*SECTION_KEYS, "declare", "siege", "at")
ENTRY_KEYS = ("block", "card", "when", "pick")
MAX_NUMBER = 200  # leads and impacts in a plan: a battle never gets near
MAX_ANSWERS = 1000  # answers by plan after one decision; each one moves the combat on
KIND_ORDER = {"plain": 0, "swords": 1, "double": 2}  # which card `any` spends first


# -- filing -------------------------------------------------------------------------------


def file_plan(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """File, replace or (with null) withdraw the side's battle plan. Allowed at any moment:
    standing orders are written ahead of the decisions they answer."""
    if "plan" not in action:
        raise Malformed("plan", N_("missing: give a plan, or null to withdraw it"))
    plan = action["plan"]
    if plan is None:
        state["plans"].pop(side, None)
    else:
        check_plan(comp, side, plan)
        state["plans"][side] = clone(plan)
    events.append({"type": "plan", "side": side, "filed": plan is not None})


def check_plan(comp: Components, side: str, plan: object) -> None:
    """Refuse anything but a well-formed plan, naming the first bad field."""
    plan = _keys(plan, "plan", PLAN_KEYS)
    _section(comp, side, plan, "plan")
    if "declare" in plan:
        _places(comp, plan["declare"], "plan.declare")
    if "siege" in plan:
        _section(comp, side, _keys(plan["siege"], "plan.siege", SIEGE_KEYS), "plan.siege")
    if "at" in plan:
        at = plan["at"]
        if not isinstance(at, dict) or len(at) > len(comp.locations):
            raise Malformed("plan.at", N_("expected a mapping of locations to orders"))
        for loc, section in at.items():
            where = f"plan.at.{loc}"
            if not isinstance(loc, str) or loc not in comp.locations:
                raise Malformed(where, N_("unknown location '{value}'"), value=loc)
            _keys(section, where, SECTION_KEYS)
            _section(comp, side, section, where)


def _keys(value: object, where: str, allowed: tuple[str, ...]) -> dict:
    """`value`, which must be a mapping with no keys but those `allowed`."""
    if not isinstance(value, dict):
        raise Malformed(where, N_("expected a mapping"))
    for key in value:
        if key not in allowed:
            raise Malformed(
                f"{where}.{key}", N_("unknown key; expected {keys}"), keys=", ".join(allowed)
            )
    return value


def _section(comp: Components, side: str, section: dict, where: str) -> None:
    if "castle" in section:
        _word(section["castle"], f"{where}.castle", ("inside", "outside", ASK))
    if "deploy" in section:
        _deploy(comp, side, section["deploy"], f"{where}.deploy")
    if "stop" in section:
        _stop(section["stop"], f"{where}.stop")
    if "challenge" in section:
        _challenge(comp, side, section["challenge"], f"{where}.challenge")
    if "losses" in section:
        _losses(comp, side, section["losses"], f"{where}.losses")
    if "retreat" in section:
        _retreat(comp, side, section["retreat"], f"{where}.retreat")


def _word(value: object, where: str, words: tuple[str, ...], shape: str = "") -> None:
    """`value` is one of `words` (or a mapping of `shape`, checked elsewhere)."""
    if not isinstance(value, str) or value not in words:
        if shape:
            raise Malformed(
                where, N_("expected one of {words} or {shape}"), words=", ".join(words), shape=shape
            )
        raise Malformed(where, N_("expected one of {words}"), words=", ".join(words))


def _number(value: object, where: str) -> None:
    if type(value) is not int or abs(value) > MAX_NUMBER:
        raise Malformed(where, N_("expected a whole number from -{n} to {n}"), n=MAX_NUMBER)


def _list(value: object, where: str) -> list:
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        raise Malformed(where, N_("expected 'ask' or a list of 1 to {n} items"), n=MAX_LIST)
    return value


def _id(
    value: object, where: str, table: Container[str], what: Phrase, extra: tuple[str, ...] = ()
) -> None:
    if not isinstance(value, str) or (value not in table and value not in extra):
        if extra:
            raise Malformed(
                where,
                N_("expected {what} or {extra}, got {value}"),
                what=what,
                extra=", ".join(extra),
                value=quoted(value),
            )
        raise Malformed(where, N_("expected {what}, got {value}"), what=what, value=quoted(value))


def _places(comp: Components, value: object, where: str) -> None:
    if value == ASK:
        return
    for i, loc in enumerate(_list(value, where)):
        _id(loc, f"{where}[{i}]", comp.locations, Phrase(N_("a location")), (ANY,))


def _deploy(comp: Components, side: str, value: object, where: str) -> None:
    if value == ASK:
        return
    own_blocks, own_cards = set(comp.side_blocks(side)), set(comp.deck(side))
    for i, entry in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        _keys(entry, at, ENTRY_KEYS)
        block = entry.get("block", ANY)
        if isinstance(block, list):
            if not 1 <= len(block) <= 2 or len(set(map(str, block))) != len(block):
                raise Malformed(f"{at}.block", N_("expected one block, or two for a double card"))
            for j, b in enumerate(block):
                _id(b, f"{at}.block[{j}]", own_blocks, Phrase(N_("a {side} block"), side=side))
        else:
            what = Phrase(N_("a {side} block, a list of two"), side=side)
            _id(block, f"{at}.block", own_blocks, what, (ANY,))
        what = Phrase(N_("a {side} card"), side=side)
        _id(entry.get("card", ANY), f"{at}.card", own_cards, what, (ANY, "none"))
        when = entry.get("when", "always")
        if isinstance(when, dict):
            _keys(when, f"{at}.when", ("lead_below",))
            _number(when.get("lead_below"), f"{at}.when.lead_below")
        else:
            _word(when, f"{at}.when", ("always", "losing"), " or {lead_below: N}")
        _word(entry.get("pick", "most"), f"{at}.pick", ("most", "least"))


def _stop(value: object, where: str) -> None:
    if isinstance(value, dict):
        _keys(value, where, ("lead", "otherwise"))
        _number(value.get("lead"), f"{where}.lead")
        _word(value.get("otherwise", "finish"), f"{where}.otherwise", ("finish", ASK))
    else:
        _word(value, where, ("finish", ASK), " or {lead: N, otherwise: finish|ask}")


def _challenge(comp: Components, side: str, value: object, where: str) -> None:
    if isinstance(value, str):
        _word(value, where, ("never", "always", ASK))
        return
    if isinstance(value, list):
        value = {"blocks": value}
    value = _keys(value, where, ("blocks", "min_impact", "otherwise"))
    enemy = set(comp.side_blocks(other(side)))
    if "blocks" in value:
        for i, b in enumerate(_list(value["blocks"], f"{where}.blocks")):
            _id(b, f"{where}.blocks[{i}]", enemy, Phrase(N_("a {side} block"), side=other(side)))
    if "min_impact" in value:
        _number(value["min_impact"], f"{where}.min_impact")
    _word(value.get("otherwise", "decline"), f"{where}.otherwise", ("decline", ASK))


def _losses(comp: Components, side: str, value: object, where: str) -> None:
    if value == ASK:
        return
    units = set(comp.side_blocks(side)) | {d for d, k in comp.disks.items() if k.side == side}
    for i, u in enumerate(_list(value, where)):
        what = Phrase(N_("a {side} block or disk"), side=side)
        _id(u, f"{where}[{i}]", units, what, (ANY, FEWEST_MON))


def _retreat(comp: Components, side: str, value: object, where: str) -> None:
    if value == ASK:
        return
    if isinstance(value, list):
        value = {"to": value}
    value = _keys(value, where, ("to", "castle"))
    if "to" in value:
        _places(comp, value["to"], f"{where}.to")
    stay = value.get("castle", 0)
    if isinstance(stay, list):
        if len(stay) > aftermath.CASTLE_LIMIT or len(set(map(str, stay))) != len(stay):
            raise Malformed(
                f"{where}.castle", N_("at most {n} different blocks"), n=aftermath.CASTLE_LIMIT
            )
        for i, b in enumerate(stay):
            what = Phrase(N_("a {side} block"), side=side)
            _id(b, f"{where}.castle[{i}]", set(comp.side_blocks(side)), what)
    elif type(stay) is not int or not 0 <= stay <= aftermath.CASTLE_LIMIT:
        raise Malformed(f"{where}.castle", N_("expected 0, 1, 2 or a list of up to two blocks"))


# -- answering: what the decision kinds (rules/decisions/) read from a plan -----------------


def policy(plan: dict, loc: str, key: str, kind: str | None = None) -> tuple[Any, str]:
    """The plan's order for `key` at `loc`: the location's own, else in a siege (`kind`,
    8.9.4) the plan's orders for sieges, else the plan's general one (None: not covered),
    of the shape `check_plan` let through for `key`. A plan with no `siege` orders gives
    its general ones in sieges too, as it did before they could be told apart."""
    here = plan.get("at", {}).get(loc, {})
    if key in here:
        return here[key], f"at.{loc}.{key}"
    sieges = plan.get("siege", {})
    if kind == SIEGE and key in sieges:
        return sieges[key], f"siege.{key}"
    return plan.get(key), key


def lead(fight: Fight, side: str) -> int:
    """How far `side` is ahead in impact (negative when behind)."""
    return fight["impact"][side] - fight["impact"][other(side)]


def losing(fight: Fight, side: str) -> bool:
    """Would lose if the combat stopped now (8.2.1: a tie favours the defender)."""
    ahead = lead(fight, side)
    return ahead < 0 or (ahead == 0 and side == fight["attacker"])


def holds(when: object, fight: Fight, side: str) -> bool:
    """Whether a deployment entry's condition (`always`, `losing`, `{lead_below: N}`) holds."""
    if isinstance(when, dict):
        return lead(fight, side) < when["lead_below"]
    return when == "always" or (when == "losing" and losing(fight, side))


def fits(entry: dict, act: dict) -> bool:
    """Whether a deployment entry's block and card describe the deployment `act`."""
    block, card = entry.get("block", ANY), entry.get("card", ANY)
    if isinstance(block, list):
        block_ok = sorted(block) == sorted(act["blocks"])
    else:
        block_ok = block == ANY or block in act["blocks"]
    card_ok = card == ANY or act.get("card", "none") == card
    return block_ok and card_ok


def impact_of(comp: Components, fight: Fight, side: str, act: dict) -> int:
    """The impact a deployment would add now (8.3, 8.4; no special attack in a siege)."""
    impacts = deployment_impacts(comp, fight, side, act.get("card"), act["blocks"])
    return sum(imp.total for imp in impacts)


def ranked(comp: Components, fight: Fight, side: str, acts: list[dict], pick: str) -> list:
    """`most` (or `least`) impact first; on a tie no card, then the plainest card, by id."""
    sign = -1 if pick == "most" else 1

    def key(act: dict) -> tuple:
        card = act.get("card")
        kind = KIND_ORDER[comp.cards[card].kind] if card else -1
        return (sign * impact_of(comp, fight, side, act), kind, card or "", act["blocks"])

    return sorted(acts, key=key)


def unit_rank(comp: Components, unit: str) -> tuple:
    """The order `any` loses units in (8.7.2, 8.9.4 C): disks first (they cannot fight),
    then the block of fewest leader dots, then of fewest mon."""
    if unit in comp.disks:
        return (0, 0, 0, unit)
    spec = comp.blocks[unit]
    return (1, spec.leader, spec.mon, unit)


def mon_rank(comp: Components, unit: str) -> tuple:
    """The order `fewest_mon` loses units in (8.7.2, 8.9.4 C): disks first, then the block
    of fewest mon (a 1-mon clan leader before a 3-mon block), fewer leader dots first on a
    tie, and the protagonist last of all (its loss ends the game, 2.1)."""
    if unit in comp.disks:
        return (0, 0, 0, 0, unit)
    spec = comp.blocks[unit]
    return (1, spec.leader == PROTAGONIST_DOTS, spec.mon, spec.leader, unit)


LOSS_ORDERS = {ANY: unit_rank, FEWEST_MON: mon_rank}  # a plan's words for the rest of a tier
