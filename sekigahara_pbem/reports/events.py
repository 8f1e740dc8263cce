"""Events in plain English: one sentence for every event the engine emits, each citing its
rule, and a generic line for anything else (an event this module does not know, or one
whose shape it does not expect, is still shown; a report never fails on an event).

The same sentence serves the recipient and the public: the event has already been
redacted for its reader (rules/views.py redact_event), so private details (your draws,
your blocks' ids) are there only when the reader may see them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..rules.components import Components
from ..rules.movement.movement import source_words
from . import names as n
from .shapes import EVENTS, fits

Describer = Callable[[dict, Components], str]


def describe(event: dict, comp: Components, own_at: dict | None = None) -> str:
    """The sentence for one event, ending with its rule in parentheses. `own_at` (block ->
    location, the reader's own blocks from its view) says where the reader's own moves
    ended, which its copy of a move event does not."""
    if fits(event, EVENTS, comp):  # of its kind's shape: put in words by its describer
        kind = event["type"]
        text = _move(event, comp, own_at or {}) if kind == "move" else DESCRIBERS[kind](event, comp)
    else:  # an unknown kind, or not of its kind's shape (reports/shapes.py)
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
    what = n.count(e["count"], "card")
    if e.get("cards"):
        return _("{side} draws {what}: {cards}").format(
            side=n.side(e["side"]), what=what, cards=n.cards(comp, e["cards"])
        )
    return _("{side} draws {what}").format(side=n.side(e["side"]), what=what)


def _reshuffle(e: dict, comp: Components) -> str:
    return _("{side}'s draw pile is empty: the {discards} are shuffled into a new one").format(
        side=n.side(e["side"]), discards=n.count(e["cards"], "discard")
    )


WHY = {
    "bid": N_("{side} discards {cards} as its bid"),
    "reinforcement step": N_("{side} discards {cards} (half the hand, Reinforcement Step)"),
    "force march": N_("{side} discards {cards} to force march"),
    "played in combat": N_("{side} discards {cards} (played in the combat just ended)"),
    "Mōri blocks to Osaka": N_("{side} discards {cards} to bring Mōri blocks to Osaka"),
    "minimal movement": N_("{side} discards {cards} to pay for minimal movement"),
    "limited movement": N_("{side} discards {cards} to pay for limited movement"),
    "total movement": N_("{side} discards {cards} to pay for total movement"),
    "no movement: discard and replenish": N_(
        "{side} discards {cards} (no movement: discard and replenish)"
    ),
}


def _discard(e: dict, comp: Components) -> str:
    why = e.get("why", "")
    words = {"side": n.side(e["side"]), "cards": n.cards(comp, e["cards"])}
    if why in WHY:
        return _(WHY[why]).format(**words)
    if why:
        return _("{side} discards {cards} ({why})").format(why=why, **words)
    return _("{side} discards {cards}").format(**words)


def _setup_random(e: dict, comp: Components) -> str:
    what = n.blocks(comp, e["blocks"]) if e.get("blocks") else n.count(e["count"], "block")
    return _("Setup: {side} places {what}, drawn at random, at {where}").format(
        side=n.side(e["side"]), what=what, where=n.loc(comp, e["location"])
    )


def _reinforcements(e: dict, comp: Components) -> str:
    words = {"side": n.side(e["side"]), "what": n.count(e["count"], "block")}
    if e.get("blocks"):
        return _("{side} draws {what} from its bag into its Recruitment Box: {blocks}").format(
            blocks=n.blocks(comp, e["blocks"]), **words
        )
    return _("{side} draws {what} from its bag into its Recruitment Box").format(**words)


def _sealed(e: dict, comp: Components) -> str:
    texts: dict[str | None, str] = {
        "bid": N_("{side} has sealed its bid"),
        "discard": N_("{side} has sealed its discard"),
    }
    text = texts.get(e.get("step"), N_("{side} has sealed its choice"))
    return _(text).format(side=n.side(e["side"]))


def _bids(e: dict, comp: Components) -> str:
    shown = [f"{n.side(s)} {n.card(comp, c)}" for s, c in sorted(e["bids"].items())]
    bids = "; ".join(shown) if shown else _("no cards")
    return _("Bids revealed: {bids}; {winner} wins the bid").format(
        bids=bids, winner=n.side(e["winner"])
    )


def _first_player(e: dict, comp: Components) -> str:
    return _("{side} makes {first} the first player this week").format(
        side=n.side(e["side"]), first=n.side(e["first"])
    )


def _week(e: dict, comp: Components) -> str:
    return _("Week {week} begins").format(week=e["week"])


LEVEL_TEXT = {
    "none": N_("no movement"),
    "minimal": N_("minimal movement (1 stack move)"),
    "limited": N_("limited movement (3 stack moves)"),
    "total": N_("total movement (every stack)"),
}


def level_text(level: str) -> str:
    """A movement level in words (7.1)."""
    return _(LEVEL_TEXT[level]) if level in LEVEL_TEXT else str(level)


def _movement_level(e: dict, comp: Components) -> str:
    return _("{side} chooses {level}").format(side=n.side(e["side"]), level=level_text(e["level"]))


def _move(e: dict, comp: Components, own_at: dict | None = None) -> str:
    """The public event has each group's count and path; the mover's own copy has only
    each group's blocks, so their destination is where the reader's view has them now."""
    parts = []
    for i, g in enumerate(e["groups"]):
        if isinstance(g, dict):
            ids = (e.get("blocks") or [])[i] if i < len(e.get("blocks") or []) else None
            who = n.listing(ids) if ids else n.count(g["count"], "block")
            along = _("{who} along {path} (force march)") if g.get("force_march") else None
            along = along or _("{who} along {path}")
            parts.append(along.format(who=who, path=n.path(comp, g["path"])))
        else:
            there = (own_at or {}).get(g[0]) if g else None
            if there and there != e["from"]:
                to = _("{blocks} to {where}").format(
                    blocks=n.listing(list(g)), where=n.loc(comp, there)
                )
                parts.append(to)
            else:
                parts.append(n.listing(list(g)))
    words = {"side": n.side(e["side"]), "where": n.loc(comp, e["from"]), "groups": "; ".join(parts)}
    if e.get("leadership"):
        text = _("{side} moves from {where}: {groups}; leadership: {leader}")
        return text.format(leader=source_words(e["leadership"]).words(_), **words)
    return _("{side} moves from {where}: {groups}").format(**words)


def _muster(e: dict, comp: Components) -> str:
    what = n.blocks(comp, e["blocks"]) if e.get("blocks") else n.count(e["count"], "block")
    if e.get("option") == "A":
        text = _("{side} musters {what} at {where} (option A, shown)")
    else:
        text = _("{side} musters {what} at {where} (option B, unseen)")
    return text.format(side=n.side(e["side"]), what=what, where=n.loc(comp, e["to"]))


def _mori(e: dict, comp: Components) -> str:
    return _("From the Mōri Box, {blocks} arrive at {where}").format(
        blocks=n.blocks(comp, e["blocks"]), where=n.loc(comp, e["to"])
    )


def _overrun(e: dict, comp: Components) -> str:
    text = _("Overrun at {where}: {count} of {side} destroy {blocks} (at least 4 to 1)")
    return text.format(
        where=n.loc(comp, e["location"]),
        count=n.count(e["blocks"], "block"),
        side=n.side(e["side"]),
        blocks=n.blocks(comp, e["eliminated"]),
    )


def _control(e: dict, comp: Components) -> str:
    return _("{side} takes control of {where}").format(
        side=n.side(e["side"]), where=n.loc(comp, e["location"])
    )


def _end_movement(e: dict, comp: Components) -> str:
    return _("{side} ends its Movement Phase; its Combat Phase follows").format(
        side=n.side(e["side"])
    )


def _declare(e: dict, comp: Components) -> str:
    return _("{side} declares combat at {where}").format(
        side=n.side(e["attacker"]), where=n.loc(comp, e["location"])
    )


def _castle_choice(e: dict, comp: Components) -> str:
    if e["inside"]:
        text = _("At {where}, {side} stays inside the castle")
    else:
        text = _("At {where}, {side} comes out to fight a battle")
    return text.format(where=n.loc(comp, e["location"]), side=n.side(e["side"]))


def _no_combat(e: dict, comp: Components) -> str:
    return _("No combat at {where}: {side} holds the castle and stays inside").format(
        where=n.loc(comp, e["location"]), side=n.side(e["side"])
    )


def _forces(e: dict) -> str:
    return ", ".join(f"{n.side(s)} {n.count(c, 'block')}" for s, c in e["forces"].items())


def _battle(e: dict, comp: Components) -> str:
    return _("Battle at {where}: {attacker} attacks {defender} ({forces})").format(
        where=n.loc(comp, e["location"]),
        attacker=n.side(e["attacker"]),
        defender=n.side(e["defender"]),
        forces=_forces(e),
    )


def _siege(e: dict, comp: Components) -> str:
    words = {
        "where": n.loc(comp, e["location"]),
        "attacker": n.side(e["attacker"]),
        "defender": n.side(e["defender"]),
        "forces": _forces(e),
    }
    if e.get("disks"):
        text = _(
            "Siege of {where}: {attacker} besieges {defender} in the castle "
            "({forces} and disks {disks})"
        )
        return text.format(disks=n.listing(e["disks"]), **words)
    text = _("Siege of {where}: {attacker} besieges {defender} in the castle ({forces})")
    return text.format(**words)


def impact_sum(impacts: list) -> str:
    """'3 mon + 1 same daimyo + 2 special attack = 6' for one deployment."""
    terms = []
    total = 0
    for i in impacts:
        mon, same, special = i["mon"], i["same_daimyo"], i["special"]
        terms.append(_("{n} mon").format(n=mon))
        if same:
            terms.append(_("{n} same daimyo").format(n=same))
        if special:
            terms.append(_("{n} special attack").format(n=special))
        total += mon + same + special
    return f"{' + '.join(terms)} = {total}" if len(terms) > 1 else f"{total}"


def totals(impact: dict) -> str:
    """'Ishida 10, Tokugawa 7'."""
    return ", ".join(f"{n.side(s)} {v}" for s, v in impact.items())


def _deploy(e: dict, comp: Components) -> str:
    words = {
        "where": n.loc(comp, e["location"]),
        "side": n.side(e["side"]),
        "blocks": n.blocks(comp, e["blocks"]),
        "impact": impact_sum(e["impacts"]),
        "totals": totals(e["impact"]),
    }
    if e.get("card"):
        text = _(
            "At {where}, {side} deploys {blocks} with {card}: impact {impact}; totals {totals}"
        )
        return text.format(card=n.card(comp, e["card"]), **words)
    text = _(
        "At {where}, {side} deploys {blocks} without a card (a leader): impact {impact}; "
        "totals {totals}"
    )
    return text.format(**words)


def _finish(e: dict, comp: Components) -> str:
    words = {"where": n.loc(comp, e["location"]), "side": n.side(e["side"])}
    if e.get("why") == "no legal deployment":  # the only reason the engine gives (8.2)
        return _("At {where}, {side} deploys no more (no legal deployment)").format(**words)
    if e.get("why"):
        return _("At {where}, {side} deploys no more ({why})").format(why=e["why"], **words)
    return _("At {where}, {side} deploys no more").format(**words)


def _challenge(e: dict, comp: Components) -> str:
    words = {
        "where": n.loc(comp, e["location"]),
        "side": n.side(e["side"]),
        "card": n.card(comp, e["card"]),
        "blocks": n.listing(e["blocks"]),
    }
    if e.get("result") == "loyal":
        text = _(
            "At {where}, {side} challenges with {card} the loyalty of {blocks}: refuted, the "
            "deployer shows {shown}; no defection"
        )
        return text.format(shown=n.card(comp, e["shown"]), **words)
    text = ngettext(
        "At {where}, {side} challenges with {card} the loyalty of {blocks}: not refuted, "
        "it defects; totals {totals}",
        "At {where}, {side} challenges with {card} the loyalty of {blocks}: not refuted, "
        "they defect; totals {totals}",
        len(e["blocks"]),
    )
    return text.format(totals=totals(e["impact"]), **words)


def _battle_result(e: dict, comp: Components) -> str:
    losses = ", ".join(f"{n.side(s)} {v}" for s, v in e["losses"].items())
    text = _(
        "{winner} wins the battle at {where}, impact {totals} (a tie goes to the defender). "
        "Losses: {losses} (1 per full 7 impact received, +1 for the loser)"
    )
    return text.format(
        winner=n.side(e["winner"]),
        where=n.loc(comp, e["location"]),
        totals=totals(e["impact"]),
        losses=losses,
    )


def _siege_result(e: dict, comp: Components) -> str:
    losses = sum(e["losses"].values())
    text = _(
        "The siege of {where} ends, impact {totals}: the defenders lose {units} "
        "(1 per full 7 impact)"
    )
    return text.format(
        where=n.loc(comp, e["location"]), totals=totals(e["impact"]), units=n.count(losses, "unit")
    )


def _losses(e: dict, comp: Components) -> str:
    return _("{side} loses {units} at {where}").format(
        side=n.side(e["side"]),
        units=n.listing([n.unit(comp, u) for u in e["units"]]),
        where=n.loc(comp, e["location"]),
    )


def _castle_falls(e: dict, comp: Components) -> str:
    return _("The castle at {where} falls to {side}").format(
        where=n.loc(comp, e["location"]), side=n.side(e["side"])
    )


def _retreat(e: dict, comp: Components) -> str:
    parts = []
    if e.get("to") is not None:
        who = n.listing(e["blocks"]) if e.get("blocks") else n.count(e["count"], "block")
        parts.append(_("{blocks} to {where}").format(blocks=who, where=n.loc(comp, e["to"])))
    if e.get("castle"):
        inside = n.listing(e["castle_blocks"]) if e.get("castle_blocks") else e["castle"]
        parts.append(_("{blocks} into the castle").format(blocks=inside))
    return _("{side} retreats from {where}: {parts}").format(
        side=n.side(e["side"]),
        where=n.loc(comp, e["location"]),
        parts="; ".join(parts) or _("nothing"),
    )


def _game_over(e: dict, comp: Components) -> str:
    winner = n.side(e["winner"])
    if e.get("how") == "points":
        score = ", ".join(f"{n.side(s)} {v}" for s, v in e["points"].items())
        text = _("GAME OVER: {winner} wins on victory points ({score}; a tie goes to Ishida)")
        return text.format(winner=winner, score=score)
    how = n.how(e.get("how", "result"))
    if e.get("reason"):
        text = _("GAME OVER: {winner} wins ({how}: {reason})")
        return text.format(winner=winner, how=how, reason=e["reason"])
    return _("GAME OVER: {winner} wins ({how})").format(winner=winner, how=how)


def _plan(e: dict, comp: Components) -> str:
    if e.get("filed"):
        return _("{side} files a battle plan (its contents stay secret)").format(
            side=n.side(e["side"])
        )
    return _("{side} withdraws its battle plan").format(side=n.side(e["side"]))


def _by_plan(e: dict, comp: Components) -> str:
    words = {"side": n.side(e["side"]), "decision": e["decision"]}
    if e.get("location"):
        text = _("{side}'s battle plan answers its {decision} decision at {where}")
        text = text.format(where=n.loc(comp, e["location"]), **words)
    else:
        text = _("{side}'s battle plan answers its {decision} decision").format(**words)
    if e.get("action"):  # the plan's owner sees which answer, and from which entry
        text += f": {_plain(e['action'])}"
        if e.get("entry"):
            text += " " + _("(from {entry})").format(entry=_plain(e["entry"]))
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
