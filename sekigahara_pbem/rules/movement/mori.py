"""Mōri Terumoto (9.3): Ishida sacrifices cards to bring Mōri blocks to Osaka."""

from __future__ import annotations

from ..cards import discard
from ..components import Components
from ..control import claim, note_arrival
from ..fields import get_str_list, known
from ..state import blocks_at, phase_of
from ..state_types import State
from ..vocab import ISHIDA, MORI_BOX, N_, Malformed, RuleViolation
from .overrun import try_overrun


def bring_mori(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """One block per card discarded, leader always last; they cannot move this turn."""
    if side != ISHIDA:
        raise RuleViolation("9.3", N_("only the Ishida player brings blocks from the Mōri Box"))
    if comp.mori_entry is None:
        raise RuleViolation("9.3", N_("this board has no Mōri Box"))
    cards = get_str_list(action, "cards")
    blocks = get_str_list(action, "blocks")
    for b in blocks:
        known(b, comp.blocks, "blocks", N_("unknown block '{value}'"))
    if not cards or not blocks:
        raise Malformed("cards", N_("name the cards discarded and the Mōri blocks brought on"))
    if len(cards) != len(blocks):
        raise RuleViolation(
            "9.3",
            N_("each card discarded brings exactly one Mōri block (cards: {n}, blocks: {given})"),
            n=len(cards),
            given=len(blocks),
        )
    box = blocks_at(state, comp, MORI_BOX)
    if len(set(blocks)) != len(blocks):
        raise RuleViolation("9.3", N_("a block is named twice"))
    for b in blocks:
        if b not in box:
            raise RuleViolation("9.3", N_("{block} is not in the Mōri Box"), block=b)
    for i, b in enumerate(blocks):
        if comp.blocks[b].leader and len(box) - i > 1:
            raise RuleViolation(
                "9.3", N_("{block} must be the last block brought from the Mōri Box"), block=b
            )
    discard(state, side, cards, events, "9.3", "Mōri blocks to Osaka")
    to = comp.mori_entry
    for b in blocks:
        state["blocks"][b] = to
    phase_of(state)["arrived"].update(dict.fromkeys(blocks, "9.3"))
    events.append({"type": "mori", "rule": "9.3", "side": side, "to": to, "blocks": blocks})
    note_arrival(state, comp, to, side)
    claim(state, comp, to, side, events)
    try_overrun(state, comp, to, side, events)
