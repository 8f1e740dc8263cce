"""What deploying blocks in a battle or siege asks of the fight (8.2-8.5): which cards
deploy which blocks, whose initiative it is, what is deployed and what may be. The deploy
handler is in decisions/deploy.py, the Loyalty Challenge in decisions/challenge.py.

The fight in progress is `state["combat"]["fight"]` (see combat.py). A deployment record
keeps the side that deployed it (`side`) and the side it now fights for (`for`, which a
successful Loyalty Challenge changes), so impact, later bonuses and loss order all follow
from the list of deployments.
"""

from __future__ import annotations

from itertools import combinations

from ..components import Block, Card, Components
from ..state import fight_of
from ..state_types import Fight, State
from ..vocab import N_, SIEGE, Phrase, RuleViolation, other
from .impact import Impact, deployment_impact


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


def standing(fight: Fight, side: str) -> dict[str, object]:
    """What a question asked of `side` in this fight is titled with: where, a battle or a
    siege (None while the castle's owner chooses, 8.9.2), and each side's impact (8.3)."""
    return {
        "at": fight["location"],
        "fight": fight["kind"],
        "ours": fight["impact"][side],
        "theirs": fight["impact"][other(side)],
    }


def deployed_blocks(fight: Fight) -> set[str]:
    return {b for d in fight["deployments"] for b in d["blocks"]}


def undeployed(fight: Fight, side: str) -> list[str]:
    used = deployed_blocks(fight)
    return [b for b in fight["forces"][side] if b not in used]


def fighting_for(comp: Components, fight: Fight, side: str) -> list[Block]:
    """Blocks deployed that now count for `side`, defectors included (8.6.2, 8.6.3)."""
    return [comp.blocks[b] for d in fight["deployments"] if d["for"] == side for b in d["blocks"]]


def deployment_impacts(
    comp: Components, fight: Fight, side: str, card_id: str | None, blocks: list[str]
) -> list[Impact]:
    """The impact each of `blocks` adds when `side` deploys them now with `card_id` (None:
    a leader without a card, 8.2.4): its mon (8.3.2), +1 per block of its daimyo already
    fighting for the side (8.3.3; the first block of a double counts for the second, 8.4.2),
    and a swords card's special attack (8.4.1), which a siege does not have (8.9.5). The
    deploy handler applies these numbers and `seki play` shows them before the choice."""
    card = comp.cards[card_id] if card_id else None
    special = card is not None and card.kind == "swords" and fight["kind"] != SIEGE
    already = fighting_for(comp, fight, side)
    impacts = []
    for b in blocks:
        impacts.append(deployment_impact(comp.blocks[b], already, special))
        already.append(comp.blocks[b])
    return impacts


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
