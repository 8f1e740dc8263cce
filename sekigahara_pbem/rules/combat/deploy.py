"""Deploying blocks in a battle or siege (8.2-8.6): cards and mon, leaders without a card,
impact, initiative, and Loyalty Challenges.

The fight in progress is `state["combat"]["fight"]` (see combat.py). A deployment record
keeps the side that deployed it (`side`) and the side it now fights for (`for`, which a
successful Loyalty Challenge changes), so impact, later bonuses and loss order all follow
from the list of deployments.
"""

from __future__ import annotations

from itertools import combinations

from ..components import Block, Card, Components
from ..fields import get_str, get_str_list, known
from ..state import fight_of
from ..state_types import Fight, State
from ..vocab import CHALLENGE, DEPLOY, N_, SIEGE, Phrase, RuleViolation, other
from .impact import deployment_impact

REFUTE_KINDS = ("plain", "swords", "double")  # the order a refuting card is picked in


def fight_at(state: State, stage: str, rule: str, what: str) -> Fight:
    """The fight, if it waits for `stage`; otherwise say what it waits for (`what`: the
    decision's name, marked with N_)."""
    combat = state["combat"]
    fight = combat["fight"] if combat else None
    if fight is None or fight["stage"] != stage:
        now = fight["stage"] if fight else Phrase(N_("the next location to be declared"))
        raise RuleViolation(
            rule, N_("no {what} is asked now (the combat awaits {now})"), what=Phrase(what), now=now
        )
    return fight


def can_deploy(card: Card, block: Block) -> bool:
    """8.2.2: the card's mon must match the block's; the Ishida and Ii blocks take any card
    except a Loyalty Challenge (9.4, 9.5)."""
    if card.kind == "loyalty":
        return False
    return block.any_card or card.clan == block.clan


def initiative(fight: Fight) -> str | None:
    """8.5: the side that is losing (a tie favours the defender) deploys; once a side has
    finished the other deploys as it likes; None when both are done. In a siege only the
    attacker deploys (8.9.4 A)."""
    att, dfn = fight["attacker"], fight["defender"]
    done = fight["finished"]
    if fight["kind"] == SIEGE:
        return None if att in done else att
    if att in done:
        return None if dfn in done else dfn
    if dfn in done:
        return att
    impact = fight["impact"]
    return att if impact[att] <= impact[dfn] else dfn


def deployed_blocks(fight: Fight) -> set[str]:
    return {b for d in fight["deployments"] for b in d["blocks"]}


def undeployed(fight: Fight, side: str) -> list[str]:
    used = deployed_blocks(fight)
    return [b for b in fight["forces"][side] if b not in used]


def fighting_for(comp: Components, fight: Fight, side: str) -> list[Block]:
    """Blocks deployed that now count for `side`, defectors included (8.6.2, 8.6.3)."""
    return [comp.blocks[b] for d in fight["deployments"] if d["for"] == side for b in d["blocks"]]


def legal_deployments(state: State, comp: Components, side: str) -> list[dict]:
    """Every deployment `side` could make now, as actions."""
    fight = fight_of(state)
    free = undeployed(fight, side)
    acts: list[dict] = []
    if side not in fight["card_deployed"]:  # 8.2.4
        acts += [{"type": "deploy", "blocks": [b]} for b in free if comp.blocks[b].leader]
    for c in sorted(set(state["cards"][side]["hand"])):
        card = comp.cards[c]
        fits = [b for b in free if can_deploy(card, comp.blocks[b])]
        acts += [{"type": "deploy", "card": c, "blocks": [b]} for b in fits]
        if card.kind == "double":
            pairs = combinations([b for b in fits if not comp.blocks[b].any_card], 2)
            acts += [{"type": "deploy", "card": c, "blocks": list(p)} for p in pairs]
    return acts


def can_deploy_any(state: State, comp: Components, side: str) -> bool:
    fight = fight_of(state)
    free = [comp.blocks[b] for b in undeployed(fight, side)]
    if side not in fight["card_deployed"] and any(b.leader for b in free):
        return True
    hand = [comp.cards[c] for c in state["cards"][side]["hand"]]
    return any(can_deploy(card, b) for card in hand for b in free)


def _check_blocks(comp: Components, fight: Fight, side: str, blocks: list[str]) -> None:
    if not 1 <= len(blocks) <= 2 or len(set(blocks)) != len(blocks):
        raise RuleViolation(
            "8.2.2", N_("a deployment places one block (or two with a double card)")
        )
    used = deployed_blocks(fight)
    for b in blocks:
        known(b, comp.blocks, "blocks", N_("unknown block '{value}'"))
        if b not in fight["forces"][side]:
            raise RuleViolation(
                "8.2.3", N_("{block} is not one of your blocks in this combat"), block=b
            )
        if b in used:
            raise RuleViolation("8.2.2", N_("{block} has already deployed in this combat"), block=b)


def _check_card(
    state: State, comp: Components, fight: Fight, side: str, card_id: str | None, blocks: list[str]
) -> None:
    specs = [comp.blocks[b] for b in blocks]
    if card_id is None:
        if len(blocks) != 1 or not specs[0].leader:
            raise RuleViolation(
                "8.2.2", N_("only a leader block may deploy without a card (8.2.4)")
            )
        if side in fight["card_deployed"]:
            raise RuleViolation(
                "8.2.4",
                N_("{block} needs a card: you have already deployed with a card in this combat"),
                block=blocks[0],
            )
        return
    known(card_id, comp.cards, "card", N_("unknown card '{value}'"))
    card = comp.cards[card_id]
    if card_id not in state["cards"][side]["hand"]:
        raise RuleViolation("8.2.2", N_("{card} is not in your hand"), card=card_id)
    if card.kind == "loyalty":
        raise RuleViolation(
            "8.2.2", N_("{card} is a Loyalty Challenge card and deploys no block"), card=card_id
        )
    for b, spec in zip(blocks, specs, strict=True):
        if not can_deploy(card, spec):
            raise RuleViolation(
                "8.2.2", N_("the mon of {card} does not match {block}"), card=card_id, block=b
            )
    if len(blocks) == 2:
        if card.kind != "double":
            raise RuleViolation(
                "8.4.2", N_("only a double card deploys two blocks; {card} is not"), card=card_id
            )
        if any(s.any_card for s in specs):
            raise RuleViolation(
                "8.4.2", N_("a double card that deploys the Ishida or Ii block deploys it alone")
            )
        if specs[0].clan != specs[1].clan or specs[0].clan != card.clan:
            raise RuleViolation(
                "8.4.2", N_("both blocks must match the mon of {card}"), card=card_id
            )


def _check_refute(
    state: State, comp: Components, side: str, refute: str, card_id: str | None, block: str
) -> None:
    known(refute, comp.cards, "refute", N_("unknown card '{value}'"))
    if card_id is None:
        raise RuleViolation("8.2.4", N_("a leader deployed without a card cannot be challenged"))
    if refute == card_id or refute not in state["cards"][side]["hand"]:
        raise RuleViolation("8.6.1", N_("{card} is not another card in your hand"), card=refute)
    if not can_deploy(comp.cards[refute], comp.blocks[block]):
        raise RuleViolation(
            "8.6.1",
            N_("{card} could not deploy {block}, so it cannot refute"),
            card=refute,
            block=block,
        )


def deploy(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.2.3: play a card face up and place matching block(s) beside the stack."""
    fight = fight_at(state, DEPLOY, "8.5", N_("deployment"))
    card_id = get_str(action, "card", required=False)
    blocks = get_str_list(action, "blocks")
    refute = get_str(action, "refute", required=False)
    _check_blocks(comp, fight, side, blocks)
    _check_card(state, comp, fight, side, card_id, blocks)
    if refute is not None:
        _check_refute(state, comp, side, refute, card_id, blocks[0])
    card = comp.cards[card_id] if card_id else None
    special = card is not None and card.kind == "swords" and fight["kind"] != SIEGE  # 8.9.5
    already = fighting_for(comp, fight, side)
    impacts = []
    for b in blocks:
        imp = deployment_impact(comp.blocks[b], already, special)
        impacts.append([imp.mon, imp.same_daimyo, imp.special])
        already.append(comp.blocks[b])
    if card_id is not None:
        state["cards"][side]["hand"].remove(card_id)
        fight["played"][side].append(card_id)
        if side not in fight["card_deployed"]:
            fight["card_deployed"].append(side)
    fight["deployments"].append(
        {"side": side, "for": side, "card": card_id, "blocks": blocks, "impacts": impacts}
    )
    fight["refute"] = refute  # secret until shown; replaced by every deployment
    fight["impact"][side] += sum(sum(i) for i in impacts)
    events.append(
        {
            "type": "deploy",
            "rule": "8.2.4" if card_id is None else "8.2.3",
            "location": fight["location"],
            "side": side,
            "card": card_id,
            "blocks": blocks,
            "impacts": [
                dict(zip(("mon", "same_daimyo", "special"), i, strict=True)) for i in impacts
            ],
            "impact": dict(fight["impact"]),
        }
    )
    fight["stage"] = CHALLENGE if challengeable(state, comp, fight) else DEPLOY


def challengeable(state: State, comp: Components, fight: Fight) -> bool:
    """8.6.1: the opponent may challenge the deployment just made if it used a card (8.2.4:
    leaders deployed without one are immune), in a battle (8.9.5), and as far as the public
    knows the opponent may hold a Loyalty Challenge. Asking only when it really holds one
    would tell the deployer what is in its hand."""
    dep = fight["deployments"][-1]
    if fight["kind"] == SIEGE or dep["card"] is None:
        return False
    opp = other(dep["side"])
    piles = state["cards"][opp]
    if not piles["hand"]:
        return False
    seen = set(piles["discard"]) | set(fight["played"][opp])
    return any(comp.cards[c].kind == "loyalty" and c not in seen for c in comp.deck(opp))


def finish(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.5: a side that declares it will deploy no more is finished for this combat."""
    fight = fight_at(state, DEPLOY, "8.5", N_("deployment"))
    declare_finished(fight, side, events)


def declare_finished(fight: Fight, side: str, events: list, why: str | None = None) -> None:
    fight["finished"].append(side)
    event: dict[str, object] = {
        "type": "finish",
        "rule": "8.9.4" if fight["kind"] == SIEGE else "8.5",
        "location": fight["location"],
        "side": side,
    }
    if why:  # only the finishing side learns that it had no choice
        event["private"] = {side: {"why": why}}
    events.append(event)


def immune(state: State, side: str) -> None:
    """8.2.4: a leader deployed without a card cannot be challenged; a challenge against it
    is refused under that rule, whoever is asked to decide now."""
    fight = state["combat"]["fight"] if state["combat"] else None
    if fight and fight.get("deployments"):  # none yet while the combat is declared
        dep = fight["deployments"][-1]
        if dep["card"] is None and dep["side"] != side:
            raise RuleViolation(
                "8.2.4", N_("a leader deployed without a card cannot be challenged")
            )


def challenge(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.6.1: a Loyalty Challenge against the deployment just made; refuted if the deployer
    can show another card able to deploy the block, otherwise the block(s) defect."""
    immune(state, side)
    fight = fight_at(state, CHALLENGE, "8.6.1", N_("Loyalty Challenge"))
    card_id = known(get_str(action, "card"), comp.cards, "card", N_("unknown card '{value}'"))
    hand = state["cards"][side]["hand"]
    if card_id not in hand:
        raise RuleViolation("8.6.1", N_("{card} is not in your hand"), card=card_id)
    if comp.cards[card_id].kind != "loyalty":
        raise RuleViolation("8.6.1", N_("{card} is not a Loyalty Challenge card"), card=card_id)
    hand.remove(card_id)
    fight["played"][side].append(card_id)
    dep = fight["deployments"][-1]
    shown = _refutation(state, comp, fight, dep)
    event: dict[str, object] = {
        "type": "challenge",
        "rule": "8.6.3" if len(dep["blocks"]) == 2 else "8.6.1",
        "location": fight["location"],
        "side": side,
        "card": card_id,
        "blocks": list(dep["blocks"]),
    }
    if shown is not None:
        event.update(result="loyal", shown=shown)  # the shown card stays in the hand
    else:
        _defect(comp, fight, dep, side)
        event.update(result="defected", impact=dict(fight["impact"]))
    events.append(event)
    fight["stage"] = DEPLOY


def decline(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.6.1: the opponent lets the deployment stand."""
    fight = fight_at(state, CHALLENGE, "8.6.1", N_("Loyalty Challenge"))
    fight["stage"] = DEPLOY


def _refutation(state: State, comp: Components, fight: Fight, dep: dict) -> str | None:
    """The card the deployer shows: the one it named with the deployment, or else the first
    able card (own daimyo before others, plain before swords before double, then by id)."""
    hand = state["cards"][dep["side"]]["hand"]
    named = fight.get("refute")
    if named in hand:
        return named
    block = comp.blocks[dep["blocks"][0]]
    able = [comp.cards[c] for c in hand if can_deploy(comp.cards[c], block)]
    if not able:
        return None
    best = min(able, key=lambda c: (c.clan != block.clan, REFUTE_KINDS.index(c.kind), c.id))
    return best.id


def _defect(comp: Components, fight: Fight, dep: dict, challenger: str) -> None:
    """8.6.1-8.6.3: the block(s) count for the challenger, without the special attack they
    were deployed with; the second block of a double keeps its +1."""
    fight["impact"][dep["side"]] -= sum(sum(i) for i in dep["impacts"])
    fight["impact"][challenger] += sum(mon + same for mon, same, _ in dep["impacts"])
    dep["for"] = challenger
