"""8.6: after a deployment the opponent may play a Loyalty Challenge against it, or
decline (never in a siege, 8.9.5): who may, the challenge and its refutation, and the
immunity of a leader deployed without a card (8.2.4)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from ..combat.deploy import can_deploy, fight_at, standing
from ..components import Components
from ..fields import get_str, known
from ..plans import ASK, policy
from ..state import fight_of
from ..state_types import Fight, State
from ..vocab import CHALLENGE, COMBAT, DEPLOY, N_, SIEGE, RuleViolation, other
from .kind import Candidates, Choice, Dialogue, Kind, Question

REFUTE_KINDS = ("plain", "swords", "double")  # the order a refuting card is picked in


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
    return unseen_challenge(comp, opp, set(piles["discard"]) | set(fight["played"][opp]))


def unseen_challenge(comp: Components, side: str, seen: AbstractSet[str]) -> bool:
    """8.6.1: whether `side` may hold a Loyalty Challenge as far as one who saw the cards
    `seen` (its discard pile and its plays in the combat under way: every play and discard
    is shown, 3.3) can tell: one of its deck's not among them."""
    return any(comp.cards[c].kind == "loyalty" and c not in seen for c in comp.deck(side))


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


def deciders(state: State) -> list[dict]:
    fight = fight_of(state)
    side = other(fight["deployments"][-1]["side"])
    return [{"side": side, "decision": CHALLENGE, "location": fight["location"]}]


def _loyalty(state: State, comp: Components, side: str) -> list[str]:
    return [c for c in sorted(state["cards"][side]["hand"]) if comp.cards[c].kind == "loyalty"]


def options(state: State, comp: Components, side: str) -> list[dict]:
    challenges = [{"type": "challenge", "card": c} for c in _loyalty(state, comp, side)]
    return challenges + [{"type": "decline"}]


def guide(state: State, comp: Components, side: str) -> Dialogue:
    """One question, titled with the fight; asked of a side that holds no Loyalty Challenge
    too, so that being asked tells the deployer nothing (8.6.1, docs/rulings.md): its
    title says so ('challenge_none'), and only declining is offered."""
    legal = options(state, comp, side)
    key = CHALLENGE if len(legal) > 1 else "challenge_none"
    context = standing(fight_of(state), side)
    answer = yield Question(key, tuple(Choice(a) for a in legal), context=context)
    return answer


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """No challenge."""
    return {"type": "decline"}


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """A challenge when the policy calls for one and a card is in hand; a decline when it
    does not, or when no card is held."""
    fight = fight_of(state)
    pol, where = policy(plan, fight["location"], "challenge")
    if pol is None or pol == ASK:
        return
    dep = fight["deployments"][-1]
    if pol == "always":
        hit = True
    elif pol == "never":
        hit = False
    else:
        rule: dict = {"blocks": pol} if isinstance(pol, list) else pol
        impact = sum(sum(i) for i in dep["impacts"])
        hit = any(b in rule.get("blocks", []) for b in dep["blocks"]) or (
            "min_impact" in rule and impact >= rule["min_impact"]
        )
        if not hit and rule.get("otherwise", "decline") == ASK:
            return
    if hit:
        for c in _loyalty(state, comp, decision["side"]):
            yield {"type": "challenge", "card": c}, where
    yield {"type": "decline"}, where


KIND = Kind(
    name=CHALLENGE,
    step=COMBAT,
    rule="8.6.1",
    turn_rule="8.6.1",
    siege_turn_rule="8.9.5",
    actions={"challenge": challenge, "decline": decline},
    fields={"challenge": {"card": ("card", False)}, "decline": {}},
    deciders=deciders,
    options=options,
    passive=passive,
    guide=guide,
    plan=plan,
    forbidden=immune,
    shows=lambda action: ("card",) if action["type"] == "challenge" else (),  # 8.6
)
