"""Overruns (7.4): four times as many blocks destroy the enemy at once, unless it holds a
castle there."""

from __future__ import annotations

from ..cards import draw
from ..components import Components
from ..control import castle_controller
from ..state import blocks_at
from ..state_types import State
from ..victory import check_instant
from ..vocab import ELIMINATED, other

OVERRUN_RATIO = 4  # 7.4.1


def try_overrun(state: State, comp: Components, loc: str, side: str, events: list) -> bool:
    """Resolve an overrun by `side` at `loc` if one occurs; True if the enemy was destroyed.

    Every friendly block at the location counts: blocks just arrived, forces already
    committed to a battle there (7.4.2) and blocks inside a castle against besiegers
    outside (7.4.3). Enemy units that control a castle here cannot be overrun (7.4.3).
    """
    enemy = other(side)
    victims = blocks_at(state, comp, loc, enemy)
    if not victims or castle_controller(state, comp, loc) == enemy:
        return False
    attackers = blocks_at(state, comp, loc, side)
    if len(attackers) < OVERRUN_RATIO * len(victims):
        return False
    for b in victims:
        state["blocks"][b] = ELIMINATED  # 8.7.3: never return, shown to both
    state["besieged"].pop(loc, None)
    state["castle_owner"].pop(loc, None)
    events.append(
        {
            "type": "overrun",
            "rule": "7.4.2",
            "location": loc,
            "side": side,
            "blocks": len(attackers),
            "eliminated": victims,
        }
    )
    if state["options"]["overrun_loss_cards"]:
        draw(state, enemy, len(victims) // 2, events, "8.10")
    check_instant(state, comp, events)
    return True
