"""Moves the listing does not spell out: part of a stack, leaving its guard behind.

The movement listing offers each stack whole and each of its blocks alone (rules/decisions/
movement.py), which is every path but not every group: a player may send any part of a
stack (7.3.1). A bot that only weighs the whole stack and single blocks either marches
its guard away or trickles out one block a move, and so lets its main army sit while
three moves a phase go to stragglers. These are the groups a player would think of:

- the stack less the guard its place needs (and, in a castle of ours, less a garrison of
  two), along each path the whole stack may take (a smaller group never moves less far,
  7.3.5);
- the strongest two to four blocks not needed there, along each path a single block may
  take (up to four blocks move as far as one, 7.3.6).

Each is a legal move whenever the option it is built from is: the same origin, path,
leader and force march, with fewer blocks.
"""

from __future__ import annotations

from ..rules.combat.aftermath import CASTLE_LIMIT  # 8.9.1: two blocks fit inside a castle
from .knowledge import Knowledge

SMALL = 4  # blocks that move as far as one (7.3.5)


def partial_moves(k: Knowledge, offered: list[dict]) -> list[dict]:
    """Moves of part of a stack, built from the offered whole-stack and single-block
    moves (module docstring); none that an offered option already is."""
    by_origin: dict[str, list[dict]] = {}
    for a in offered:
        if a["type"] == "move" and len(a["groups"]) == 1:
            by_origin.setdefault(a["from"], []).append(a)
    out: list[dict] = []
    for origin, moves in by_origin.items():
        movable = max((a["groups"][0]["blocks"] for a in moves), key=len)
        if len(movable) < 3:
            continue
        spare = _spare(k, origin, movable)
        if len(spare) < 2:
            continue
        strongest = sorted(spare, key=lambda b: (-k.comp.blocks[b].mon, b))[:SMALL]
        seen: set[tuple] = set()
        for a in moves:
            group = a["groups"][0]
            whole = len(group["blocks"]) == len(movable)
            blocks = spare if whole and len(spare) < len(movable) else strongest
            if not whole and len(group["blocks"]) != 1:
                continue
            key = (tuple(blocks), tuple(group["path"]), group.get("force_march"))
            if len(blocks) >= len(movable) or key in seen:
                continue
            seen.add(key)
            out.append(_with_blocks(a, blocks))
    return out


def _spare(k: Knowledge, origin: str, movable: list[str]) -> list[str]:
    """The movable blocks the place can do without: never the protagonist (it moves with
    its whole stack, or not at all), not a castle's garrison of two (its weakest: inside,
    every block counts alike, one lost per 7 impact, 8.9.4; a castle left empty reverts,
    4.3), and not the strongest few its guard needs. Without the garrison a castle's
    stack went out whole or one block at a time, or stayed: the idle army (issue 39)."""
    need = k.guard_needed(origin)
    others = [b for b in movable if b != k.protagonist]
    guard = [b for b in k.blocks.get(origin, []) if b not in others]  # those staying anyway
    if k.view["castles"].get(origin) == k.side and len(guard) < CASTLE_LIMIT:
        weakest = sorted(others, key=lambda b: (k.comp.blocks[b].mon, b))
        guard += weakest[: CASTLE_LIMIT - len(guard)]
    if need:
        for b in sorted(others, key=lambda b: (-k.comp.blocks[b].mon, b)):
            if k.strength(guard) >= need:
                break
            guard.append(b)
    return [b for b in others if b not in guard]


def _with_blocks(action: dict, blocks: list[str]) -> dict:
    group = {**action["groups"][0], "blocks": list(blocks)}
    return {**action, "groups": [group]}
