"""The heuristic player's battle plan (rules/plans.py, docs/protocol.md "Battle plans"):
standing orders in its own spirit, filed so that its combats need no mail for most
decisions.

The plan names blocks, never places (except where to retreat), so it stays good as the
blocks move: deploy the strongest block a card allows while losing, never the protagonist
(2.1); challenge deployments worth 3 or more; lose the weakest units, never the protagonist
nor Hideyori (asked instead); retreat towards our strongest stacks. Castle choices are
left to the player (they depend on the forces met).
"""

from __future__ import annotations

from .knowledge import Knowledge

MIN_CHALLENGE = 3  # the impact a challenged deployment must bring (8.6)


def battle_plan(k: Knowledge) -> dict:
    """The plan for our side as it stands in `k`."""
    gone = set(k.view["eliminated"])
    ours = [b for b in k.comp.side_blocks(k.side) if b not in gone and b != k.protagonist]
    strongest = sorted(ours, key=lambda b: (-k.comp.blocks[b].mon, b))
    disks = [d for d, spec in k.comp.disks.items() if spec.side == k.side and not spec.instant_loss]
    weakest = sorted(ours + disks, key=lambda u: (_worth(k, u), u))
    stacks = sorted(k.blocks, key=lambda loc: (-k.strength(k.blocks[loc]), loc))
    return {
        "declare": ["any"],
        "castle": "ask",
        "deploy": [{"block": b, "when": "losing"} for b in strongest],
        "stop": "finish",
        "challenge": {"min_impact": MIN_CHALLENGE, "otherwise": "decline"},
        "losses": weakest,
        "retreat": {"to": [*stacks[:10], "any"], "castle": 0},
    }


def _worth(k: Knowledge, unit: str) -> float:
    return 1.0 if unit in k.comp.disks else k.worth(unit)
