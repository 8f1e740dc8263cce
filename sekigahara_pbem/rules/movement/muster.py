"""Mustering (7.2): blocks from the Recruitment Box onto friendly recruitment locations."""

from __future__ import annotations

from ..components import Components
from ..control import claim, note_arrival
from ..fields import get_str, get_str_list, known, one_of
from ..state import has_units, phase_of
from ..state_types import State
from ..vocab import N_, RECRUIT, Malformed, RuleViolation, other
from .movement import spend_stack_move
from .overrun import try_overrun


def recruitment_locations(comp: Components, side: str, clan: str | None = None) -> tuple[str, ...]:
    """Locations marked with a friendly mon (of `clan`, if given); worked out once per
    component set (movement options ask for them before every action), and a tuple, so
    the answer kept is never changed by a caller."""
    known: dict[tuple[str, str | None], tuple[str, ...]] | None = comp.memo.get(__name__)
    if known is None:
        known = comp.memo[__name__] = {}
    if (side, clan) not in known:
        known[(side, clan)] = tuple(
            loc.id
            for loc in comp.locations.values()
            if any(comp.clans[c] == side and (clan is None or c == clan) for c in loc.recruit)
        )
    return known[(side, clan)]


def muster(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """7.2 option A: any blocks of one daimyo to that daimyo's location, shown to the
    opponent; option B: one block of any daimyo to any friendly location, unseen."""
    option = one_of(get_str(action, "option"), ("A", "B"), "option")
    to = known(get_str(action, "to"), comp.locations, "to", N_("unknown location '{value}'"))
    blocks = get_str_list(action, "blocks")
    if not blocks:
        raise Malformed("blocks", N_("name at least one block to muster"))
    for b in blocks:
        known(b, comp.blocks, "blocks", N_("unknown block '{value}'"))
    phase = phase_of(state)
    if phase["mustered"]:
        raise RuleViolation("7.2", N_("you may muster at most once per turn"))
    spend_stack_move(state, N_("mustering"), "7.2")
    if len(set(blocks)) != len(blocks):
        raise RuleViolation("7.2", N_("a block is named twice"))
    for b in blocks:
        if comp.blocks[b].side != side or state["blocks"][b] != RECRUIT:
            raise RuleViolation("7.2", N_("{block} is not in your Recruitment Box"), block=b)
    if option == "A":
        clans = {comp.blocks[b].clan for b in blocks}
        if len(clans) != 1:
            raise RuleViolation("7.2", N_("option A musters blocks of one daimyo only"))
        clan = clans.pop()
        if to not in recruitment_locations(comp, side, clan):
            raise RuleViolation(
                "7.2",
                N_("{where} is not marked with the {clan} mon"),
                where=to,
                clan=comp.clan_names[clan],
            )
    else:
        if len(blocks) != 1:
            raise RuleViolation("7.2", N_("option B musters a single block"))
        if to not in recruitment_locations(comp, side):
            raise RuleViolation(
                "7.2", N_("{where} is not a friendly recruitment location"), where=to
            )
    if has_units(state, comp, to, other(side)) and not has_units(state, comp, to, side):
        raise RuleViolation(
            "7.2",
            N_(
                "mustering cannot start combat at {where}: an attack cannot "
                "come from the Recruitment Box, only support one"
            ),
            where=to,
        )
    for b in blocks:
        state["blocks"][b] = to
    phase["mustered"] = True
    phase["arrived"].update(dict.fromkeys(blocks, "7.2"))
    shown = {"blocks": list(blocks)} if option == "A" else {}
    events.append(
        {
            "type": "muster",
            "rule": "7.2",
            "side": side,
            "option": option,
            "to": to,
            "count": len(blocks),
            **shown,
            "private": {side: {"blocks": list(blocks)}},
        }
    )
    note_arrival(state, comp, to, side)
    claim(state, comp, to, side, events)
    try_overrun(state, comp, to, side, events)
