"""8.2-8.5, 8.9.4: the side with the initiative deploys a block (or two with a double card)
or finishes; a side with no legal deployment finishes without being asked, and the fight
is concluded when both have finished."""

from __future__ import annotations

from ..combat import aftermath
from ..combat import deploy as rules
from ..combat.deploy import can_deploy, deployed_blocks, fight_at, standing
from ..components import Components
from ..fields import get_str, get_str_list, known
from ..plans import ASK, fits, holds, lead, policy, ranked
from ..state import fight_of
from ..state_types import Fight, State
from ..vocab import CHALLENGE, COMBAT, DEPLOY, N_, SIEGE, RuleViolation
from .challenge import challengeable
from .kind import Candidates, Choice, Dialogue, Kind, Question


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
    impacts = [
        [imp.mon, imp.same_daimyo, imp.special]
        for imp in rules.deployment_impacts(comp, fight, side, card_id, blocks)
    ]
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


def deciders(state: State) -> list[dict]:
    fight = fight_of(state)
    side = rules.initiative(fight)
    return [{"side": side, "decision": DEPLOY, "location": fight["location"]}]


def options(state: State, comp: Components, side: str) -> list[dict]:
    return rules.legal_deployments(state, comp, side) + [{"type": "finish"}]


SHORT = 9  # deployments asked in one list; more are asked card first (one key each)
DEPLOY_CARD = "deploy_card"  # the first question of a long list: which card


def _one_per_face(legal: list[dict], comp: Components) -> list[dict]:
    """The deployments with only the first of the cards alike (`guide`)."""
    first: dict[tuple, str] = {}
    out = []
    for a in legal:
        card = a.get("card")
        if card is not None:
            spec = comp.cards[card]
            if first.setdefault((spec.deck, spec.kind, spec.bid, spec.clan), card) != card:
                continue
        out.append(a)
    return out


def guide(state: State, comp: Components, side: str) -> Dialogue:
    """Every deployment, or finish, titled with the fight and its impact: in one list if
    it is short; else the card first (or a leader without one, 8.2.4, or finish), then
    the block or blocks it deploys (8.2.2, 8.4.2). A battle of four blocks and four cards
    listed every block with every card: 32 rows, most alike. Of cards alike in all the
    rules read (clan, kind, bid: ukita-1 and ukita-2), one is offered."""
    legal = _one_per_face(options(state, comp, side), comp)
    context = standing(fight_of(state), side)
    if len(legal) <= SHORT:
        return (yield Question(DEPLOY, tuple(Choice(a) for a in legal), context=context))
    by_card: dict[str, list[dict]] = {}
    first: list[Choice] = []
    for a in legal:
        card = a.get("card")
        if card is None:
            first.append(Choice(a))  # a leader without a card, or finish
        elif card not in by_card:
            by_card[card] = [a]
            first.append(Choice(card))
        else:
            by_card[card].append(a)
    answer = yield Question(DEPLOY_CARD, tuple(first), context=context)
    if isinstance(answer, dict):
        return answer
    with_card = by_card[answer]
    if len(with_card) == 1:
        return with_card[0]
    return (yield Question(DEPLOY, tuple(Choice(a) for a in with_card), context=context))


def forced(state: State, comp: Components, events: list) -> bool:
    fight = fight_of(state)
    side = rules.initiative(fight)
    if side is None:
        aftermath.conclude(state, comp, fight, events)
    elif rules.can_deploy_any(state, comp, side):
        return False
    else:
        declare_finished(fight, side, events, "no legal deployment")
    return True


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """Deploy nothing more."""
    return {"type": "finish"}


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """`stop: {lead: N}` reached: finish; else the first entry whose condition holds and
    that fits a legal deployment; else finish if `stop` says so."""
    fight = fight_of(state)
    side = decision["side"]
    loc = fight["location"]
    entries, where = policy(plan, loc, "deploy", fight["kind"])
    if entries == ASK:
        return
    stop, stop_where = policy(plan, loc, "stop", fight["kind"])
    if isinstance(stop, dict) and lead(fight, side) >= stop["lead"]:
        yield {"type": "finish"}, stop_where
    legal = rules.legal_deployments(state, comp, side) if entries else []
    for i, entry in enumerate(entries or []):
        if holds(entry.get("when", "always"), fight, side):
            fitting = [a for a in legal if fits(entry, a)]
            for act in ranked(comp, fight, side, fitting, entry.get("pick", "most")):
                yield act, f"{where}[{i}]"
    otherwise = stop.get("otherwise", "finish") if isinstance(stop, dict) else stop
    if otherwise == "finish":
        yield {"type": "finish"}, stop_where


KIND = Kind(
    name=DEPLOY,
    step=COMBAT,
    rule="8.5",
    turn_rule="8.5",
    siege_turn_rule="8.9.4",
    actions={"deploy": deploy, "finish": finish},
    fields={
        "deploy": {"card": ("card", False), "blocks": ("block", True), "refute": ("card", False)},
        "finish": {},
    },
    deciders=deciders,
    options=options,
    guide=guide,
    forced=forced,
    passive=passive,
    plan=plan,
)
