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

from collections.abc import Callable, Iterator

from . import aftermath, combat
from .components import Components
from .deploy import fighting_for, legal_deployments
from .fields import MAX_LIST
from .impact import deployment_impact
from .state import clone
from .vocab import (
    CASTLE,
    CHALLENGE,
    COMBAT,
    DECLARE,
    DEPLOY,
    LOSSES,
    RETREAT,
    SIEGE,
    Malformed,
    RuleViolation,
    other,
)

ASK, ANY = "ask", "any"
SECTION_KEYS = ("castle", "deploy", "stop", "challenge", "losses", "retreat")
PLAN_KEYS = (*SECTION_KEYS, "declare", "at")
ENTRY_KEYS = ("block", "card", "when", "pick")
MAX_NUMBER = 200  # leads and impacts in a plan: a battle never gets near
MAX_ANSWERS = 1000  # answers by plan after one decision; each one moves the combat on
KIND_ORDER = {"plain": 0, "swords": 1, "double": 2}  # which card `any` spends first

Handlers = dict[str, Callable]


# -- filing -------------------------------------------------------------------------------


def file_plan(state: dict, comp: Components, side: str, action: dict, events: list) -> None:
    """File, replace or (with null) withdraw the side's battle plan. Allowed at any moment:
    standing orders are written ahead of the decisions they answer."""
    if "plan" not in action:
        raise Malformed("plan", "missing: give a plan, or null to withdraw it")
    plan = action["plan"]
    if plan is None:
        state["plans"].pop(side, None)
    else:
        check_plan(comp, side, plan)
        state["plans"][side] = clone(plan)
    events.append({"type": "plan", "side": side, "filed": plan is not None})


def check_plan(comp: Components, side: str, plan: object) -> None:
    """Refuse anything but a well-formed plan, naming the first bad field."""
    _keys(plan, "plan", PLAN_KEYS)
    _section(comp, side, plan, "plan")
    if "declare" in plan:
        _places(comp, plan["declare"], "plan.declare")
    if "at" in plan:
        at = plan["at"]
        if not isinstance(at, dict) or len(at) > len(comp.locations):
            raise Malformed("plan.at", "expected a mapping of locations to orders")
        for loc, section in at.items():
            where = f"plan.at.{loc}"
            if not isinstance(loc, str) or loc not in comp.locations:
                raise Malformed(where, f"unknown location '{loc}'")
            _keys(section, where, SECTION_KEYS)
            _section(comp, side, section, where)


def _keys(value: object, where: str, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, dict):
        raise Malformed(where, "expected a mapping")
    for key in value:
        if key not in allowed:
            raise Malformed(f"{where}.{key}", f"unknown key; expected {', '.join(allowed)}")


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


def _word(value: object, where: str, words: tuple[str, ...], more: str = "") -> None:
    if not isinstance(value, str) or value not in words:
        raise Malformed(where, f"expected one of {', '.join(words)}{more}")


def _number(value: object, where: str) -> None:
    if type(value) is not int or abs(value) > MAX_NUMBER:
        raise Malformed(where, f"expected a whole number from -{MAX_NUMBER} to {MAX_NUMBER}")


def _list(value: object, where: str) -> list:
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        raise Malformed(where, f"expected 'ask' or a list of 1 to {MAX_LIST} items")
    return value


def _id(value: object, where: str, table: object, what: str, extra: tuple[str, ...] = ()) -> None:
    if not isinstance(value, str) or (value not in table and value not in extra):
        words = f" or {', '.join(extra)}" if extra else ""
        raise Malformed(where, f"expected {what}{words}, got {value!r}")


def _places(comp: Components, value: object, where: str) -> None:
    if value == ASK:
        return
    for i, loc in enumerate(_list(value, where)):
        _id(loc, f"{where}[{i}]", comp.locations, "a location", (ANY,))


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
                raise Malformed(f"{at}.block", "expected one block, or two for a double card")
            for j, b in enumerate(block):
                _id(b, f"{at}.block[{j}]", own_blocks, f"a {side} block")
        else:
            _id(block, f"{at}.block", own_blocks, f"a {side} block, a list of two", (ANY,))
        _id(entry.get("card", ANY), f"{at}.card", own_cards, f"a {side} card", (ANY, "none"))
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
    _keys(value, where, ("blocks", "min_impact", "otherwise"))
    enemy = set(comp.side_blocks(other(side)))
    if "blocks" in value:
        for i, b in enumerate(_list(value["blocks"], f"{where}.blocks")):
            _id(b, f"{where}.blocks[{i}]", enemy, f"a {other(side)} block")
    if "min_impact" in value:
        _number(value["min_impact"], f"{where}.min_impact")
    _word(value.get("otherwise", "decline"), f"{where}.otherwise", ("decline", ASK))


def _losses(comp: Components, side: str, value: object, where: str) -> None:
    if value == ASK:
        return
    units = set(comp.side_blocks(side)) | {d for d, k in comp.disks.items() if k.side == side}
    for i, u in enumerate(_list(value, where)):
        _id(u, f"{where}[{i}]", units, f"a {side} block or disk", (ANY,))


def _retreat(comp: Components, side: str, value: object, where: str) -> None:
    if value == ASK:
        return
    if isinstance(value, list):
        value = {"to": value}
    _keys(value, where, ("to", "castle"))
    if "to" in value:
        _places(comp, value["to"], f"{where}.to")
    stay = value.get("castle", 0)
    if isinstance(stay, list):
        if len(stay) > aftermath.CASTLE_LIMIT or len(set(map(str, stay))) != len(stay):
            raise Malformed(f"{where}.castle", f"at most {aftermath.CASTLE_LIMIT} different blocks")
        for i, b in enumerate(stay):
            _id(b, f"{where}.castle[{i}]", set(comp.side_blocks(side)), f"a {side} block")
    elif type(stay) is not int or not 0 <= stay <= aftermath.CASTLE_LIMIT:
        raise Malformed(f"{where}.castle", "expected 0, 1, 2 or a list of up to two blocks")


# -- answering ------------------------------------------------------------------------------


def follow(state: dict, comp: Components, events: list, handlers: Handlers) -> None:
    """After a decision: while the decision now asked is answered by its side's plan, apply
    the answer (in place, through `handlers`) and mark it in the events as played by plan."""
    for _ in range(MAX_ANSWERS):
        if state["step"] != COMBAT:
            return
        decision = combat.decision(state)
        plan = state["plans"].get(decision["side"])
        if plan is None or not _answer(state, comp, decision, plan, events, handlers):
            return


def _answer(
    state: dict, comp: Components, decision: dict, plan: dict, events: list, handlers: Handlers
) -> bool:
    """Apply the first of the plan's answers that the rules accept; False if there is none
    (the decision is asked). An illegal answer is passed over, never an error."""
    side = decision["side"]
    for action, entry in _candidates(state, comp, decision, plan):
        trial = clone(state)
        found: list = []
        try:
            handlers[action["type"]](trial, comp, side, action, found)
        except (RuleViolation, Malformed):
            continue
        state.clear()
        state.update(trial)
        marker = {
            "type": "by_plan",
            "side": side,
            "decision": decision["decision"],
            "private": {side: {"entry": entry, "action": action}},
        }
        if "location" in decision:
            marker["location"] = decision["location"]
        events.append(marker)
        events.extend(found)
        return True
    return False


Candidates = Iterator[tuple[dict, str]]


def _candidates(state: dict, comp: Components, decision: dict, plan: dict) -> Candidates:
    """The plan's answers in order of preference, each with the part of the plan it came
    from (`entry`, shown to the plan's owner)."""
    kind = decision["decision"]
    if kind == DECLARE:
        yield from _declare(state, comp, plan)
        return
    loc = decision["location"]
    fight = state["combat"]["fight"]
    if kind == CASTLE:
        choice, entry = _policy(plan, loc, "castle")
        if choice in ("inside", "outside"):
            yield {"type": "castle", "inside": choice == "inside"}, entry
    elif kind == DEPLOY:
        yield from _deploy_answers(state, comp, fight, decision["side"], plan)
    elif kind == CHALLENGE:
        yield from _challenge_answers(state, comp, fight, decision["side"], plan)
    elif kind == LOSSES:
        yield from _loss_answers(comp, fight, decision["side"], plan)
    elif kind == RETREAT:
        yield from _retreat_answers(state, comp, fight, plan)


def _policy(plan: dict, loc: str, key: str) -> tuple[object, str]:
    """The plan's order for `key` at `loc`: the location's own, else the plan's general one
    (None: not covered)."""
    here = plan.get("at", {}).get(loc, {})
    if key in here:
        return here[key], f"at.{loc}.{key}"
    return plan.get(key), key


def _declare(state: dict, comp: Components, plan: dict) -> Candidates:
    order = plan.get("declare", ASK)
    if order == ASK:
        return
    left = combat.to_fight(state, comp)
    for i, loc in enumerate(order):
        for target in left if loc == ANY else [loc]:
            if target in left:
                yield {"type": "declare", "location": target}, f"declare[{i}]"


def _lead(fight: dict, side: str) -> int:
    return fight["impact"][side] - fight["impact"][other(side)]


def _losing(fight: dict, side: str) -> bool:
    """Would lose if the combat stopped now (8.2.1: a tie favours the defender)."""
    lead = _lead(fight, side)
    return lead < 0 or (lead == 0 and side == fight["attacker"])


def _holds(when: object, fight: dict, side: str) -> bool:
    if isinstance(when, dict):
        return _lead(fight, side) < when["lead_below"]
    return when == "always" or (when == "losing" and _losing(fight, side))


def _fits(entry: dict, act: dict) -> bool:
    block, card = entry.get("block", ANY), entry.get("card", ANY)
    if isinstance(block, list):
        block_ok = sorted(block) == sorted(act["blocks"])
    else:
        block_ok = block == ANY or block in act["blocks"]
    card_ok = card == ANY or act.get("card", "none") == card
    return block_ok and card_ok


def _impact(comp: Components, fight: dict, side: str, act: dict) -> int:
    """The impact a deployment would add now (8.3, 8.4; no special attack in a siege)."""
    card = comp.cards[act["card"]] if "card" in act else None
    special = card is not None and card.kind == "swords" and fight["kind"] != SIEGE
    already = fighting_for(comp, fight, side)
    total = 0
    for b in act["blocks"]:
        total += deployment_impact(comp.blocks[b], already, special).total
        already.append(comp.blocks[b])
    return total


def _ranked(comp: Components, fight: dict, side: str, acts: list[dict], pick: str) -> list:
    """`most` (or `least`) impact first; on a tie no card, then the plainest card, by id."""
    sign = -1 if pick == "most" else 1

    def key(act: dict) -> tuple:
        card = act.get("card")
        kind = KIND_ORDER[comp.cards[card].kind] if card else -1
        return (sign * _impact(comp, fight, side, act), kind, card or "", act["blocks"])

    return sorted(acts, key=key)


def _deploy_answers(
    state: dict, comp: Components, fight: dict, side: str, plan: dict
) -> Candidates:
    """`stop: {lead: N}` reached: finish; else the first entry whose condition holds and
    that fits a legal deployment; else finish if `stop` says so."""
    loc = fight["location"]
    entries, where = _policy(plan, loc, "deploy")
    if entries == ASK:
        return
    stop, stop_where = _policy(plan, loc, "stop")
    if isinstance(stop, dict) and _lead(fight, side) >= stop["lead"]:
        yield {"type": "finish"}, stop_where
    legal = legal_deployments(state, comp, side) if entries else []
    for i, entry in enumerate(entries or []):
        if _holds(entry.get("when", "always"), fight, side):
            fitting = [a for a in legal if _fits(entry, a)]
            for act in _ranked(comp, fight, side, fitting, entry.get("pick", "most")):
                yield act, f"{where}[{i}]"
    otherwise = stop.get("otherwise", "finish") if isinstance(stop, dict) else stop
    if otherwise == "finish":
        yield {"type": "finish"}, stop_where


def _challenge_answers(
    state: dict, comp: Components, fight: dict, side: str, plan: dict
) -> Candidates:
    """A Loyalty Challenge (8.6.1) when the policy calls for one and a card is in hand;
    a decline when it does not, or when no card is held."""
    policy, where = _policy(plan, fight["location"], "challenge")
    if policy is None or policy == ASK:
        return
    hand = state["cards"][side]["hand"]
    cards = sorted(c for c in hand if comp.cards[c].kind == "loyalty")
    dep = fight["deployments"][-1]
    if policy == "always":
        hit = True
    elif policy == "never":
        hit = False
    else:
        rule = {"blocks": policy} if isinstance(policy, list) else policy
        impact = sum(sum(i) for i in dep["impacts"])
        hit = any(b in rule.get("blocks", []) for b in dep["blocks"]) or (
            "min_impact" in rule and impact >= rule["min_impact"]
        )
        if not hit and rule.get("otherwise", "decline") == ASK:
            return
    if hit:
        for c in cards:
            yield {"type": "challenge", "card": c}, where
    yield {"type": "decline"}, where


def _unit_rank(comp: Components, unit: str) -> tuple:
    """The order `any` loses units in: disks first (they cannot fight), then the weakest
    block, leaders last."""
    if unit in comp.disks:
        return (0, 0, 0, unit)
    spec = comp.blocks[unit]
    return (1, spec.leader, spec.mon, unit)


def _loss_answers(comp: Components, fight: dict, side: str, plan: dict) -> Candidates:
    """The owed units (8.7.2 order of tiers; 9.1 Hideyori last) in the plan's order."""
    prefs, where = _policy(plan, fight["location"], "losses")
    if not isinstance(prefs, list):
        return
    owed = fight["owed"][side]
    chosen: list[str] = []
    for tier in aftermath.loss_tiers(comp, fight, side):
        if owed == 0:
            break
        if len(tier) <= owed:
            chosen += tier
            owed -= len(tier)
            continue
        ranked = [u for u in prefs if u in tier]
        if ANY in prefs:
            ranked += sorted(
                (u for u in tier if u not in ranked), key=lambda u: _unit_rank(comp, u)
            )
        ranked = list(dict.fromkeys(ranked))
        if len(ranked) < owed:
            return
        chosen += ranked[:owed]
        owed = 0
    yield {"type": "losses", "units": chosen}, where


def _retreat_answers(state: dict, comp: Components, fight: dict, plan: dict) -> Candidates:
    """8.8: the first listed destination the rules allow, with the blocks the plan keeps in
    the castle when the castle may take them (8.8.4)."""
    policy, where = _policy(plan, fight["location"], "retreat")
    if policy is None or policy == ASK:
        return
    if isinstance(policy, list):
        policy = {"to": policy}
    loser = other(fight["winner"])
    force = [b for b in fight["forces"][loser] if state["blocks"][b] == fight["location"]]
    allowed, castle = aftermath.retreat_options(state, comp, fight)
    stay: list[str] = []
    if castle:
        keep = policy.get("castle", 0)
        if isinstance(keep, list):
            stay = [b for b in keep if b in force]
        else:
            strongest = sorted(force, key=lambda b: (-comp.blocks[b].mon, b))
            stay = strongest[:keep]
    if len(stay) == len(force):
        yield {"type": "retreat", "castle": stay}, f"{where}.castle"
        return
    order = policy.get("to", ASK)
    for loc in [] if order == ASK else order:
        for to in sorted(allowed) if loc == ANY else [loc]:
            if to in allowed:
                yield {"type": "retreat", "to": to, "castle": stay}, where
