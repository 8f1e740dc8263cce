"""Scoring the combat phase's options (rule 8): which combat to declare, inside or outside
a castle, deployments, Loyalty Challenges, losses and retreats.

Cards played in a combat come back as new draws afterwards (8.10), so deploying is nearly
free: the heuristic deploys its strongest legal block while it holds the initiative, and
stops only when more impact would not cost the enemy another block (8.7.1: one per 7).
It never deploys its protagonist, so that a lost battle can always be paid with other
blocks (8.7.2 takes deployed blocks first).
"""

from __future__ import annotations

from .cards import card_value
from .knowledge import Knowledge
from .moves import at_risk, exposure
from .weights import WEIGHTS

LOSS_STEP = 7  # 8.7.1, 8.9.4: one block lost for every 7 impact
CHALLENGE_ODDS = WEIGHTS["fights.CHALLENGE_ODDS"]  # the enemy shows no second match (8.6.1)


def _fight(k: Knowledge) -> dict:
    return k.view["combat"]["fight"]


def _unit_worth(k: Knowledge, unit: str) -> float:
    disk = k.comp.disks.get(unit)
    if disk is not None:
        return 1000.0 if disk.instant_loss else 1.0
    return k.worth(unit)


def score_declare(k: Knowledge, action: dict) -> float:
    """8.1: every contested location must be fought; start where we are strongest, so a
    win there is settled before the enemy's cards are spent elsewhere."""
    loc = action["location"]
    return k.strength(k.blocks.get(loc, [])) - k.enemy_strength(loc)


def score_castle(k: Knowledge, action: dict) -> float:
    """8.9.2: fight outside when our force is the stronger; otherwise shelter inside (a
    siege costs the attacker 7 impact per block and lets him no Loyalty Challenge, and an
    owner who is the phasing player avoids the combat altogether)."""
    fight = _fight(k)
    loc = fight["location"]
    margin = k.strength(k.blocks.get(loc, [])) - k.enemy_strength(loc)
    if not action["inside"]:
        return margin
    return 1.0 if fight["attacker"] != k.side else 0.5


def score_deploy(k: Knowledge, action: dict, gain: int) -> float:
    """8.2.3: the impact the deployment adds (measured with the engine on our shadow), less
    the risk that a Loyalty Challenge turns it when no second card could refute it and
    the enemy may still hold one (8.6.1), less a little for trading a good card for a
    random draw."""
    blocks = action["blocks"]
    if k.protagonist in blocks:
        return -100.0
    score = float(gain)
    card = action.get("card")
    if card is not None and _fight(k)["kind"] == "battle" and k.view["hands"][k.enemy]:
        rest = [c for c in k.hand if c != card]
        if k.enemy_may_challenge() and not any(_refutes(k, c, b) for c in rest for b in blocks):
            score -= 0.35 * gain
        score -= 0.1 * card_value(k, card)
    return score


def _refutes(k: Knowledge, card_id: str, block: str) -> bool:
    card, spec = k.comp.cards[card_id], k.comp.blocks[block]
    return card.kind != "loyalty" and (spec.any_card or card.clan == spec.clan)


def worth_deploying(k: Knowledge, best: float, gain: int) -> bool:
    """Whether to deploy the best deployment rather than finish (8.5): always while losing;
    once the enemy has finished and we lead, only while it costs him another block."""
    if best <= 0:
        return False
    fight = _fight(k)
    impact = fight["impact"]
    mine, theirs = impact[k.side], impact[k.enemy]
    ahead = mine > theirs or (mine == theirs and fight["attacker"] == k.enemy)
    if not ahead or fight["kind"] == "siege":
        return True
    return (mine + gain) // LOSS_STEP > mine // LOSS_STEP


def score_challenge(k: Knowledge, action: dict) -> float:
    """8.6: challenge the deployment just made when the impact it would swing (counted
    twice: taken from him, given to us) outweighs the card; declining scores 0."""
    if action["type"] == "decline":
        return 0.0
    last = _fight(k)["deployments"][-1]
    impact = sum(sum(parts) for parts in last["impacts"])
    return 2 * impact * CHALLENGE_ODDS - card_value(k, action["card"]) / 2


def score_losses(k: Knowledge, action: dict) -> float:
    """8.7.2: lose what we value least; never the protagonist or Hideyori if a choice
    remains."""
    return -sum(_unit_worth(k, u) for u in action["units"])


def score_retreat(k: Knowledge, action: dict) -> float:
    """8.8: retreat where our blocks are safest, joining friends; leave one or two blocks
    inside a castle only when holding it is worth the siege they will face (8.8.4)."""
    loc = _fight(k)["location"]
    force = [b for b in k.blocks.get(loc, []) if b not in _fight(k)["lost"].get(k.side, [])]
    inside = action.get("castle", [])
    going = [b for b in force if b not in inside]
    score = 0.0
    if inside:
        if k.protagonist in inside:
            return -100.0
        score += 4.0 - at_risk(k, inside) / 2
    to = action.get("to")
    if to is not None and going:
        if k.enemy_at.get(to):
            score -= 3.0 + k.enemy_strength(to)
        there = k.blocks.get(to, [])
        score -= exposure(k, to, there + going) - exposure(k, to, there)
        score += 0.2 * len(there) + k.resource_gain(to)
    return score
