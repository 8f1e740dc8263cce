"""Checking a turn file offline, as its player: against the packet it answers and, action
by action, with the rules engine on a shadow of the game built from the player's own view
(rules/shadow.py). What the player cannot know (the enemy's hidden pieces, random draws)
is stood in for, so a file that passes is accepted unless a draw or a hidden piece it
could not foresee changes things."""

from __future__ import annotations

from ..component_files import load_components
from ..rules.engine import apply, pending
from ..rules.shadow import shadow_state
from ..rules.vocab import Malformed, RuleViolation
from .game import Definition
from .packets import Packet
from .turns import Turn


def problems_with(definition: Definition, turn: Turn, packet: Packet) -> list[str]:
    out = []
    if turn.side != packet.side:
        out.append(f"side: the packet is for {packet.side}, the file says {turn.side}")
    if turn.answers != packet.seq:
        out.append(f"answers: the packet is number {packet.seq}, the file says {turn.answers}")
    if out:
        return out
    comp = load_components()
    state = shadow_state(comp, packet.view, definition.options)
    for i, action in enumerate(turn.actions):
        waiting = pending(state)
        if not any(d["side"] == turn.side for d in waiting):
            who = ", ".join(f"{d['side']} ({d['decision']})" for d in waiting) or "nobody"
            return [
                f"actions[{i}]: by then it is no longer your decision (waiting for {who}); "
                "remove it and the rest, and send them when asked"
            ]
        try:
            state, _ = apply(state, comp, turn.side, action)
        except (RuleViolation, Malformed) as exc:
            return [f"actions[{i}]: {exc}"]
    return []
