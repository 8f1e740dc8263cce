"""A battle plan (rules/plans.py) built from plain questions, for `seki play --plan`: when
to fight where, castles, deployments, when to stop, Loyalty Challenges, losses and
retreats. Each answer is one of a few standing orders a player would give; `ask` (the
default everywhere) leaves that decision to a mail. The result is one `plan` action."""

from __future__ import annotations

from ..rules.decisions import Choice, Dialogue, Question

ASK = "ask"
LEADS = (1, 2, 3, 4, 6)
IMPACTS = (3, 4, 5, 6)

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
    challenge = yield _ask("plan_challenge", "never", "always", *IMPACTS)
    if isinstance(challenge, int):
        plan["challenge"] = {"min_impact": challenge, "otherwise": "decline"}
    elif challenge != ASK:
        plan["challenge"] = challenge
    if (yield _ask("plan_losses", "weakest")) == "weakest":
        plan["losses"] = ["any"]
    retreat = yield _ask("plan_retreat", 0, 1, 2)
    if retreat != ASK:
        plan["retreat"] = {"to": ["any"], "castle": retreat}
    return {"type": "plan", "plan": plan}
