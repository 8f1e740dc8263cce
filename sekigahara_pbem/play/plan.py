"""A battle plan (rules/plans.py) built from plain questions, for `seki play --plan`: when
to fight where, castles, deployments and when to finish in a battle, then in a siege,
Loyalty Challenges, losses and retreats. Each answer is one of a few standing orders a
player would give; `ask` (the default everywhere) leaves that decision to a mail. The
result is one `plan` action."""

from __future__ import annotations

from ..rules.decisions import Choice, Dialogue, Question
from ..rules.plans import ANY, FEWEST_MON

ASK = "ask"
LEADS = (1, 2, 3, 4, 6)
IMPACTS = (3, 4, 5, 6)
SIEGE_IMPACTS = (7, 14, 21)  # one loss per full 7 impact (8.9.4 B)
ALL = "all"

# Standing deployment orders: (name, the plan's deploy entries).
DEPLOYMENTS = {
    "losing_most": [{"block": "any", "card": "any", "when": "losing", "pick": "most"}],
    "always_most": [{"block": "any", "card": "any", "pick": "most"}],
    "leaders_then_losing": [
        {"card": "none"},
        {"block": "any", "card": "any", "when": "losing", "pick": "most"},
    ],
}


def _ask(key: str, *values: object) -> Question:
    return Question(key, tuple(Choice(v) for v in (ASK, *values)), default=ASK)


def plan_dialogue() -> Dialogue:
    """The questions, then `{type: plan, plan: {...}}` with what was not left to `ask`."""
    plan: dict = {}
    if (yield _ask("plan_declare", "any")) == "any":
        plan["declare"] = ["any"]
    castle = yield _ask("plan_castle", "inside", "outside")
    if castle != ASK:
        plan["castle"] = castle
    deploy = yield _ask("plan_deploy", *DEPLOYMENTS)
    if deploy != ASK:
        plan["deploy"] = DEPLOYMENTS[deploy]
        stop = yield Question(
            "plan_stop",
            tuple(Choice(v) for v in ("finish", ASK, *LEADS)),
            default="finish",
        )
        plan["stop"] = {"lead": stop, "otherwise": "finish"} if isinstance(stop, int) else stop
    siege = yield _ask("plan_siege", *SIEGE_IMPACTS, ALL)
    if siege == ALL:
        plan["siege"] = {"deploy": DEPLOYMENTS["always_most"], "stop": "finish"}
    elif isinstance(siege, int):  # in a siege the defenders have no impact: the lead is ours
        stop = {"lead": siege, "otherwise": "finish"}
        plan["siege"] = {"deploy": DEPLOYMENTS["always_most"], "stop": stop}
    elif "deploy" in plan:  # the battle orders are not for sieges
        plan["siege"] = {"deploy": ASK}
    challenge = yield _ask("plan_challenge", "never", "always", *IMPACTS)
    if isinstance(challenge, int):
        plan["challenge"] = {"min_impact": challenge, "otherwise": "decline"}
    elif challenge != ASK:
        plan["challenge"] = challenge
    losses = yield _ask("plan_losses", FEWEST_MON, ANY)
    if losses != ASK:
        plan["losses"] = [losses]
    retreat = yield _ask("plan_retreat", 0, 1, 2)
    if retreat != ASK:
        plan["retreat"] = {"to": ["any"], "castle": retreat}
    return {"type": "plan", "plan": plan}
