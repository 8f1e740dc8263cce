"""Impact arithmetic of a deployment (8.3, 8.4) and the losses it causes (8.7.1, 8.9.4).

Pure functions over block specs, so the battle and siege procedures (and their reports)
share one place where every number comes from.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..components import Block

SPECIAL_ATTACK_BONUS = 2  # 8.4.1, for the attacker and again per earlier block of its type
IMPACT_PER_LOSS = 7  # 8.7.1, 8.9.4


@dataclass(frozen=True)
class Impact:
    """One deployment's impact and where each point comes from (for reports)."""

    mon: int  # 8.3.2
    same_daimyo: int  # 8.3.3
    special: int  # 8.4.1

    @property
    def total(self) -> int:
        return self.mon + self.same_daimyo + self.special


def deployment_impact(block: Block, already: list[Block], special_attack: bool) -> Impact:
    """The impact of deploying `block` after `already` (blocks already deployed on the same
    side in this battle, defectors included where they now fight).

    8.3.3: +1 per block of the same daimyo already deployed. 8.4.1: a special attack (a
    swords card deploying a gun or cavalry block) adds 2, plus 2 for every block with that
    ability already deployed, whether or not those made a special attack themselves.
    """
    same = sum(1 for b in already if b.clan == block.clan)
    special = 0
    if special_attack and block.ability is not None:
        earlier = sum(1 for b in already if b.ability == block.ability)
        special = SPECIAL_ATTACK_BONUS * (1 + earlier)
    return Impact(mon=block.mon, same_daimyo=same, special=special)


def battle_losses(impact_received: int, lost_battle: bool) -> int:
    """8.7.1: one block per full 7 impact received, one more for the loser."""
    return impact_received // IMPACT_PER_LOSS + (1 if lost_battle else 0)


def siege_losses(impact_delivered: int) -> int:
    """8.9.4 B: the defender loses one block or disk per full 7 impact; the attacker none."""
    return impact_delivered // IMPACT_PER_LOSS
