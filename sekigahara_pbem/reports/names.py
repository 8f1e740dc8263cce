"""How reports name things: sides, locations, blocks, cards, lists.

A report names a block or card only by an id it was given (from a view or an event), so
these helpers can describe an id but never discover one.
"""

from __future__ import annotations

import unicodedata

from ..rules.components import Components

SIDE_NAMES = {"ishida": "Ishida", "tokugawa": "Tokugawa"}
SIDE_COLOURS = {"ishida": "gold", "tokugawa": "black"}
STEP_NAMES = {
    "discard": "Reinforcement Step (discard half the hand)",
    "bid": "Turn Order Step (sealed bids)",
    "choose_first": "Turn Order Step (choosing the first player)",
    "movement": "Movement Phase",
    "combat": "Combat Phase",
    "over": "game over",
}


def side(s: object) -> str:
    return SIDE_NAMES.get(s, str(s)) if isinstance(s, str) else str(s)


def loc(comp: Components, location: object) -> str:
    spec = comp.locations.get(location) if isinstance(location, str) else None
    return spec.name if spec else str(location)


def alphabetical(name: str) -> str:
    """A sort key that files Ōsaka under O."""
    return "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))


def path(comp: Components, locations: list) -> str:
    return " → ".join(loc(comp, x) for x in locations)


def listing(items: list) -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def block_traits(comp: Components, block_id: str) -> str:
    """'Ukita, 3 mon, gun, leader' for a block id (the id itself if unknown)."""
    spec = comp.blocks.get(block_id)
    if spec is None:
        return ""
    traits = [comp.clan_names.get(spec.clan, spec.clan), f"{spec.mon} mon"]
    if spec.ability:
        traits.append(spec.ability)
    if spec.leader == 3:
        traits.append("protagonist")
    elif spec.leader:
        traits.append("leader")
    if spec.any_card:
        traits.append("any card")
    return ", ".join(traits)


def block(comp: Components, block_id: str) -> str:
    """'ukita-3a (Ukita, 3 mon)'."""
    traits = block_traits(comp, block_id)
    return f"{block_id} ({traits})" if traits else str(block_id)


def unit(comp: Components, unit_id: str) -> str:
    """A block, or a disk by its name."""
    disk = comp.disks.get(unit_id)
    if disk is not None:
        return f"{unit_id} (disk: {disk.name})"
    return block(comp, unit_id)


def card_traits(comp: Components, card_id: str) -> str:
    spec = comp.cards.get(card_id)
    if spec is None:
        return ""
    if spec.kind == "loyalty":
        return f"Loyalty Challenge, bid {spec.bid}"
    kind = {"plain": "", "swords": ", swords", "double": ", double"}.get(spec.kind, "")
    clan = comp.clan_names.get(spec.clan or "", spec.clan or "?")
    return f"{clan} mon{kind}, bid {spec.bid}"


def card(comp: Components, card_id: str) -> str:
    """'ukita-swords-1 (Ukita mon, swords, bid 20)'."""
    traits = card_traits(comp, card_id)
    return f"{card_id} ({traits})" if traits else str(card_id)


def cards(comp: Components, ids: list) -> str:
    return listing([card(comp, c) for c in ids])


def blocks(comp: Components, ids: list) -> str:
    return listing([block(comp, b) for b in ids])
