"""Building a state from a written position (scenario files, tests, disputes).

A position names only what matters; everything else takes a neutral default: unlisted
blocks are in their bags, unlisted cards in their draw piles under any listed ones (or in
the discard piles with `unlisted_cards: discard`), disks at their castles, no resource
control beyond what is listed.
"""

from __future__ import annotations

from typing import Any, overload

from ..refusal import quoted
from . import rng
from .components import Components
from .movement.movement import start_phase
from .state import contested, game_options, new_state
from .state_types import State
from .vocab import (
    CHOOSE_FIRST,
    COMBAT,
    ELIMINATED,
    LAST_WEEK,
    LEVELS,
    MOVEMENT,
    N_,
    OFF_MAP,
    OVER,
    SIDES,
    STEPS,
    Malformed,
)

DEFAULT_SEED = "00" * 16
KEYS = {
    "options",
    "seed",
    "week",
    "turn",
    "step",
    "first",
    "active",
    "bid_winner",
    "blocks",
    "disks",
    "hands",
    "decks",
    "discards",
    "unlisted_cards",
    "control",
    "castle_owner",
    "besieged",
    "phase",
    "result",
}
PHASE_KEYS = {
    "level",
    "moves_left",
    "moved",
    "arrived",
    "sources",
    "roads",
    "mustered",
    "entered",
}


def _mapping(spec: dict, key: str, where: str = "position") -> dict:
    value = spec.get(key) or {}
    if not isinstance(value, dict):
        raise Malformed(f"{where}.{key}", N_("expected a mapping"))
    return value


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Malformed(where, N_("expected a list of names"))
    return value


def _choice(value: Any, allowed: Any, where: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise Malformed(
            where,
            N_("expected one of {words}, got {value}"),
            words=", ".join(allowed),
            value=quoted(value),
        )
    return value


@overload
def _side(value: Any, where: str) -> str: ...


@overload
def _side(value: Any, where: str, allow_none: bool) -> str | None: ...


def _side(value: Any, where: str, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    return _choice(value, SIDES, where)


def _no_unknown_keys(spec: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in spec if k not in allowed)
    if unknown:
        raise Malformed(f"{where}.{unknown[0]}", N_("unknown key (a typo?)"))


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Malformed(
            where, N_("expected a whole number from {low} to {high}"), low=low, high=high
        )
    return value


def build_position(comp: Components, spec: Any) -> State:
    """A full state from a position description (see docs/scenarios.md)."""
    if not isinstance(spec, dict):
        raise Malformed("position", N_("expected a mapping"))
    _no_unknown_keys(spec, KEYS, "position")
    options = game_options(_mapping(spec, "options"), "position.options")
    step = _choice(spec.get("step", MOVEMENT), STEPS, "position.step")
    if step == COMBAT:
        raise Malformed(
            "position.step",
            N_(
                "a position cannot start in combat: write it at the movement step with "
                "phase: {level: none} and end the movement"
            ),
        )
    week = _int(spec.get("week", 1), "position.week", 1, LAST_WEEK)
    turn = _choice(spec.get("turn", "A"), ("A", "B"), "position.turn")
    try:
        generator = rng.new(str(spec.get("seed", DEFAULT_SEED)))
    except Malformed as exc:
        raise Malformed("position.seed", "{why}", why=exc) from None
    state = new_state(comp, options, generator, step)
    state["week"] = week
    state["turn"] = turn
    state["first"] = _side(spec.get("first"), "position.first", allow_none=True)
    state["bid_winner"] = _side(spec.get("bid_winner"), "position.bid_winner", allow_none=True)
    _place_blocks(state, comp, _mapping(spec, "blocks"))
    for d, where in _mapping(spec, "disks").items():
        if d not in comp.disks:
            raise Malformed(f"position.disks.{d}", N_("unknown disk"))
        if not isinstance(where, str) or (where not in comp.locations and where != ELIMINATED):
            raise Malformed(
                f"position.disks.{d}", N_("unknown location {value}"), value=quoted(where)
            )
        state["disks"][d] = where
    _deal_cards(state, comp, spec)
    for key in ("control", "castle_owner", "besieged"):
        for loc, side in _mapping(spec, key).items():
            if loc not in comp.locations:
                raise Malformed(f"position.{key}.{loc}", N_("unknown location"))
            state[key][loc] = _side(side, f"position.{key}.{loc}")
    for loc in contested(state, comp):  # 8.9.1: unless told, the castle's own side was first
        castle = comp.locations[loc].castle
        if castle is not None:
            state["castle_owner"].setdefault(loc, castle)
    for d, where in state["disks"].items():  # a disk never leaves: its side was there first
        owner = state["castle_owner"].get(where)
        if owner is not None and owner != comp.disks[d].side:
            raise Malformed(
                f"position.castle_owner.{where}",
                N_("the {disk} disk's side was there first"),
                disk=d,
            )
    if step == MOVEMENT:
        _movement_phase(state, comp, spec)
    elif step == CHOOSE_FIRST:
        state["active"] = state["bid_winner"] or _side(spec.get("active"), "position.active")
    elif step == OVER:
        result = spec.get("result")
        if not isinstance(result, dict) or result.get("winner") not in SIDES:
            raise Malformed("position.result", N_("expected a mapping with the winner"))
        state["result"] = {"winner": result["winner"], "how": str(result.get("how", "given"))}
    return state


def _place_blocks(state: State, comp: Components, blocks: dict) -> None:
    placed: set[str] = set()
    for where, ids in blocks.items():
        if where not in comp.locations and where not in OFF_MAP:
            raise Malformed(f"position.blocks.{where}", N_("unknown location or box"))
        for b in _names(ids, f"position.blocks.{where}"):
            if b not in comp.blocks:
                raise Malformed(
                    f"position.blocks.{where}", N_("unknown block {value}"), value=quoted(b)
                )
            if b in placed:
                raise Malformed(f"position.blocks.{where}", N_("{block} is placed twice"), block=b)
            placed.add(b)
            state["blocks"][b] = where


def _deal_cards(state: State, comp: Components, spec: dict) -> None:
    piles = {key: _mapping(spec, key) for key in ("hands", "decks", "discards")}
    for side in SIDES:
        dealt: dict[str, list[str]] = {}
        for key, pile in piles.items():
            cards = _names(pile.get(side, []), f"position.{key}.{side}")
            for c in cards:
                if c not in comp.cards or comp.cards[c].deck != side:
                    raise Malformed(
                        f"position.{key}.{side}",
                        N_("{card} is not a {side} card"),
                        card=quoted(c),
                        side=side,
                    )
            dealt[key] = list(cards)
        listed = [c for pile in dealt.values() for c in pile]
        if len(set(listed)) != len(listed):
            raise Malformed(f"position.cards.{side}", N_("a card is listed twice"))
        rest = sorted(set(comp.deck(side)) - set(listed), reverse=True)
        unlisted = _choice(
            spec.get("unlisted_cards", "deck"), ("deck", "discard"), "position.unlisted_cards"
        )
        if unlisted == "discard":
            dealt["discards"] = rest + dealt["discards"]
            rest = []
        state["cards"][side] = {
            "deck": rest + dealt["decks"],  # listed cards on top, the top is last
            "hand": dealt["hands"],
            "discard": dealt["discards"],
        }


def _movement_phase(state: State, comp: Components, spec: dict) -> None:
    active = _side(spec.get("active", state["first"]), "position.active")
    if state["first"] is None:
        state["first"] = active
    made = start_phase(state, active)
    phase = _mapping(spec, "phase")
    _no_unknown_keys(phase, PHASE_KEYS, "position.phase")
    level = phase.get("level")
    if level is not None:
        made["level"] = _choice(level, LEVELS, "position.phase.level")
        left = phase.get("moves_left", LEVELS[level][1])
        made["moves_left"] = (
            None if left is None else _int(left, "position.phase.moves_left", 0, 100)
        )
    for key in ("moved", "sources", "roads"):
        if key in phase:
            made[key] = _names(phase[key], f"position.phase.{key}")
    arrived = phase.get("arrived", {})
    if isinstance(arrived, list):  # a plain list means mustered blocks (7.2)
        arrived = dict.fromkeys(_names(arrived, "position.phase.arrived"), "7.2")
    if not isinstance(arrived, dict) or any(
        not isinstance(b, str) or r not in ("7.2", "9.3") for b, r in arrived.items()
    ):
        raise Malformed("position.phase.arrived", N_("expected blocks, or block: 7.2|9.3"))
    made["arrived"] = arrived
    entered = _mapping(phase, "entered", "position.phase")
    for loc, froms in entered.items():
        if loc not in comp.locations:
            raise Malformed(f"position.phase.entered.{loc}", N_("unknown location"))
        for f in _names(froms, f"position.phase.entered.{loc}"):
            if comp.road(loc, f) is None:
                raise Malformed(
                    f"position.phase.entered.{loc}",
                    N_("{to} is not next to {where}"),
                    to=f,
                    where=loc,
                )
        made["entered"][loc] = list(froms)
    if "mustered" in phase:
        if not isinstance(phase["mustered"], bool):
            raise Malformed("position.phase.mustered", N_("expected true or false"))
        made["mustered"] = phase["mustered"]
