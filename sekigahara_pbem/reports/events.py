"""Events in plain English: one sentence for every event the engine emits, each citing its
rule, and a generic line for anything else (an event this module does not know, or one
whose shape it does not expect, is still shown; a report never fails on an event).

The same sentence serves the recipient and the public: the event has already been
redacted for its reader (rules/views.py redact_event), so private details (your draws,
your blocks' ids) are there only when the reader may see them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.components import Components
from . import names as n

Describer = Callable[[dict, Components], str]


def describe(event: dict, comp: Components, own_at: dict | None = None) -> str:
    """The sentence for one event, ending with its rule in parentheses. `own_at` (block ->
    location, the reader's own blocks from its view) says where the reader's own moves
    ended, which its copy of a move event does not."""
    kind = event.get("type") if isinstance(event, dict) else None
    describer = DESCRIBERS.get(kind) if isinstance(kind, str) else None
    text = None
    if describer is not None:
        try:
            text = _move(event, comp, own_at or {}) if kind == "move" else describer(event, comp)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            text = None  # an unexpected shape: the generic line below
    if text is None:
        text = generic(event)
    rule = event.get("rule") if isinstance(event, dict) else None
    return f"{text} ({rule})" if rule else text


def generic(event: object) -> str:
    """Any event as 'type: key value; …', readable without knowing the type."""
    if not isinstance(event, dict):
        return f"event: {event}"
    parts = [f"{k} {_plain(v)}" for k, v in sorted(event.items()) if k not in ("type", "rule")]
    return f"{event.get('type', 'event')}: {'; '.join(parts)}" if parts else str(event.get("type"))


def _plain(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return str(value)


def _draw(e: dict, comp: Components) -> str:
    what = n.plural(e["count"], "card")
    if e.get("cards"):
        return f"{n.side(e['side'])} draws {what}: {n.cards(comp, e['cards'])}"
    return f"{n.side(e['side'])} draws {what}"


def _reshuffle(e: dict, comp: Components) -> str:
    return (
        f"{n.side(e['side'])}'s draw pile is empty: the {n.plural(e['cards'], 'discard')} "
        "are shuffled into a new one"
    )


WHY = {
    "bid": "as its bid",
    "reinforcement step": "(half the hand, Reinforcement Step)",
    "force march": "to force march",
    "played in combat": "(played in the combat just ended)",
    "Mōri blocks to Osaka": "to bring Mōri blocks to Ōsaka",
}


def _discard(e: dict, comp: Components) -> str:
    why = e.get("why", "")
    reason = WHY.get(why, f"({why})" if why else "")
    if why.endswith(" movement") and why.split()[0] in ("minimal", "limited", "total"):
        reason = f"to pay for {why}"
    return f"{n.side(e['side'])} discards {n.cards(comp, e['cards'])} {reason}".rstrip()


def _setup_random(e: dict, comp: Components) -> str:
    what = n.blocks(comp, e["blocks"]) if e.get("blocks") else n.plural(e["count"], "block")
    where = n.loc(comp, e["location"])
    return f"Setup: {n.side(e['side'])} places {what}, drawn at random, at {where}"


def _reinforcements(e: dict, comp: Components) -> str:
    what = n.plural(e["count"], "block")
    into = "from its bag into its Recruitment Box"
    if e.get("blocks"):
        return f"{n.side(e['side'])} draws {what} {into}: {n.blocks(comp, e['blocks'])}"
    return f"{n.side(e['side'])} draws {what} {into}"


def _sealed(e: dict, comp: Components) -> str:
    what = {"bid": "its bid", "discard": "its discard"}.get(e.get("step"), "its choice")
    return f"{n.side(e['side'])} has sealed {what}"


def _bids(e: dict, comp: Components) -> str:
    shown = [f"{n.side(s)} {n.card(comp, c)}" for s, c in sorted(e["bids"].items())]
    bids = "; ".join(shown) if shown else "no cards"
    return f"Bids revealed: {bids}; {n.side(e['winner'])} wins the bid"


def _first_player(e: dict, comp: Components) -> str:
    return f"{n.side(e['side'])} makes {n.side(e['first'])} the first player this week"


def _week(e: dict, comp: Components) -> str:
    return f"Week {e['week']} begins"


LEVEL_TEXT = {
    "none": "no movement",
    "minimal": "minimal movement (1 stack move)",
    "limited": "limited movement (3 stack moves)",
    "total": "total movement (every stack)",
}


def _movement_level(e: dict, comp: Components) -> str:
    return f"{n.side(e['side'])} chooses {LEVEL_TEXT.get(e['level'], e['level'])}"


def _move(e: dict, comp: Components, own_at: dict | None = None) -> str:
    """The public event has each group's count and path; the mover's own copy has only
    each group's blocks, so their destination is where the reader's view has them now."""
    parts = []
    for i, g in enumerate(e["groups"]):
        if isinstance(g, dict):
            ids = (e.get("blocks") or [])[i] if i < len(e.get("blocks") or []) else None
            who = n.listing(ids) if ids else n.plural(g["count"], "block")
            march = " (force march)" if g.get("force_march") else ""
            parts.append(f"{who} along {n.path(comp, g['path'])}{march}")
        else:
            there = (own_at or {}).get(g[0]) if g else None
            to = f" to {n.loc(comp, there)}" if there and there != e["from"] else ""
            parts.append(f"{n.listing(list(g))}{to}")
    lead = f"; leadership: {e['leadership']}" if e.get("leadership") else ""
    return f"{n.side(e['side'])} moves from {n.loc(comp, e['from'])}: {'; '.join(parts)}{lead}"


def _muster(e: dict, comp: Components) -> str:
    how = "option A, shown" if e.get("option") == "A" else "option B, unseen"
    what = n.blocks(comp, e["blocks"]) if e.get("blocks") else n.plural(e["count"], "block")
    return f"{n.side(e['side'])} musters {what} at {n.loc(comp, e['to'])} ({how})"


def _mori(e: dict, comp: Components) -> str:
    return f"From the Mōri Box, {n.blocks(comp, e['blocks'])} arrive at {n.loc(comp, e['to'])}"


def _overrun(e: dict, comp: Components) -> str:
    return (
        f"Overrun at {n.loc(comp, e['location'])}: {n.plural(e['blocks'], 'block')} of "
        f"{n.side(e['side'])} destroy {n.blocks(comp, e['eliminated'])} (at least 4 to 1)"
    )


def _control(e: dict, comp: Components) -> str:
    return f"{n.side(e['side'])} takes control of {n.loc(comp, e['location'])}"


def _end_movement(e: dict, comp: Components) -> str:
    return f"{n.side(e['side'])} ends its Movement Phase; its Combat Phase follows"


def _declare(e: dict, comp: Components) -> str:
    return f"{n.side(e['attacker'])} declares combat at {n.loc(comp, e['location'])}"


def _castle_choice(e: dict, comp: Components) -> str:
    where = n.loc(comp, e["location"])
    how = "stays inside the castle" if e["inside"] else "comes out to fight a battle"
    return f"At {where}, {n.side(e['side'])} {how}"


def _no_combat(e: dict, comp: Components) -> str:
    return (
        f"No combat at {n.loc(comp, e['location'])}: {n.side(e['side'])} holds the castle "
        "and stays inside"
    )


def _forces(e: dict) -> str:
    return ", ".join(f"{n.side(s)} {n.plural(c, 'block')}" for s, c in e["forces"].items())


def _battle(e: dict, comp: Components) -> str:
    return (
        f"Battle at {n.loc(comp, e['location'])}: {n.side(e['attacker'])} attacks "
        f"{n.side(e['defender'])} ({_forces(e)})"
    )


def _siege(e: dict, comp: Components) -> str:
    disks = f" and disks {n.listing(e['disks'])}" if e.get("disks") else ""
    return (
        f"Siege of {n.loc(comp, e['location'])}: {n.side(e['attacker'])} besieges "
        f"{n.side(e['defender'])} in the castle ({_forces(e)}{disks})"
    )


def impact_sum(impacts: list) -> str:
    """'3 mon + 1 same daimyo + 2 special attack = 6' for one deployment."""
    terms = []
    total = 0
    for i in impacts:
        mon, same, special = i["mon"], i["same_daimyo"], i["special"]
        terms.append(f"{mon} mon")
        if same:
            terms.append(f"{same} same daimyo")
        if special:
            terms.append(f"{special} special attack")
        total += mon + same + special
    return f"{' + '.join(terms)} = {total}" if len(terms) > 1 else f"{total}"


def _totals(impact: dict) -> str:
    return ", ".join(f"{n.side(s)} {v}" for s, v in impact.items())


def _deploy(e: dict, comp: Components) -> str:
    how = f"with {n.card(comp, e['card'])}" if e.get("card") else "without a card (a leader)"
    return (
        f"At {n.loc(comp, e['location'])}, {n.side(e['side'])} deploys "
        f"{n.blocks(comp, e['blocks'])} {how}: impact {impact_sum(e['impacts'])}; "
        f"totals {_totals(e['impact'])}"
    )


def _finish(e: dict, comp: Components) -> str:
    why = f" ({e['why']})" if e.get("why") else ""
    return f"At {n.loc(comp, e['location'])}, {n.side(e['side'])} deploys no more{why}"


def _challenge(e: dict, comp: Components) -> str:
    head = (
        f"At {n.loc(comp, e['location'])}, {n.side(e['side'])} challenges with "
        f"{n.card(comp, e['card'])} the loyalty of "
        f"{n.listing(e['blocks'])}"
    )
    if e.get("result") == "loyal":
        return f"{head}: refuted, the deployer shows {n.card(comp, e['shown'])}; no defection"
    return f"{head}: not refuted, the block(s) defect; totals {_totals(e['impact'])}"


def _battle_result(e: dict, comp: Components) -> str:
    losses = ", ".join(f"{n.side(s)} {v}" for s, v in e["losses"].items())
    return (
        f"{n.side(e['winner'])} wins the battle at {n.loc(comp, e['location'])}, impact "
        f"{_totals(e['impact'])} (a tie goes to the defender). Losses: {losses} (1 per "
        "full 7 impact received, +1 for the loser)"
    )


def _siege_result(e: dict, comp: Components) -> str:
    losses = sum(e["losses"].values())
    return (
        f"The siege of {n.loc(comp, e['location'])} ends, impact {_totals(e['impact'])}: "
        f"the defenders lose {n.plural(losses, 'unit')} (1 per full 7 impact)"
    )


def _losses(e: dict, comp: Components) -> str:
    units = n.listing([n.unit(comp, u) for u in e["units"]])
    return f"{n.side(e['side'])} loses {units} at {n.loc(comp, e['location'])}"


def _castle_falls(e: dict, comp: Components) -> str:
    return f"The castle at {n.loc(comp, e['location'])} falls to {n.side(e['side'])}"


def _retreat(e: dict, comp: Components) -> str:
    where = n.loc(comp, e["location"])
    parts = []
    if e.get("to") is not None:
        who = n.listing(e["blocks"]) if e.get("blocks") else n.plural(e["count"], "block")
        parts.append(f"{who} to {n.loc(comp, e['to'])}")
    if e.get("castle"):
        inside = n.listing(e["castle_blocks"]) if e.get("castle_blocks") else e["castle"]
        parts.append(f"{inside} into the castle")
    return f"{n.side(e['side'])} retreats from {where}: {'; '.join(parts) or 'nothing'}"


def _game_over(e: dict, comp: Components) -> str:
    winner = n.side(e["winner"])
    if e.get("how") == "points":
        score = ", ".join(f"{n.side(s)} {v}" for s, v in e["points"].items())
        return f"GAME OVER: {winner} wins on victory points ({score}; a tie goes to Ishida)"
    reason = f": {e['reason']}" if e.get("reason") else ""
    return f"GAME OVER: {winner} wins ({e.get('how', 'result')}{reason})"


def _plan(e: dict, comp: Components) -> str:
    if e.get("filed"):
        return f"{n.side(e['side'])} files a battle plan (its contents stay secret)"
    return f"{n.side(e['side'])} withdraws its battle plan"


def _by_plan(e: dict, comp: Components) -> str:
    where = f" at {n.loc(comp, e['location'])}" if e.get("location") else ""
    text = f"{n.side(e['side'])}'s battle plan answers its {e['decision']} decision{where}"
    if e.get("action"):  # the plan's owner sees which answer, and from which entry
        text += f": {_plain(e['action'])}"
        if e.get("entry"):
            text += f" (from {_plain(e['entry'])})"
    return text


DESCRIBERS: dict[str, Describer] = {
    "plan": _plan,
    "by_plan": _by_plan,
    "draw": _draw,
    "reshuffle": _reshuffle,
    "discard": _discard,
    "setup_random": _setup_random,
    "reinforcements": _reinforcements,
    "sealed": _sealed,
    "bids": _bids,
    "first_player": _first_player,
    "week": _week,
    "movement_level": _movement_level,
    "move": _move,
    "muster": _muster,
    "mori": _mori,
    "overrun": _overrun,
    "control": _control,
    "end_movement": _end_movement,
    "declare": _declare,
    "castle_choice": _castle_choice,
    "no_combat": _no_combat,
    "battle": _battle,
    "siege": _siege,
    "deploy": _deploy,
    "finish": _finish,
    "challenge": _challenge,
    "battle_result": _battle_result,
    "siege_result": _siege_result,
    "losses": _losses,
    "castle_falls": _castle_falls,
    "retreat": _retreat,
    "game_over": _game_over,
}
