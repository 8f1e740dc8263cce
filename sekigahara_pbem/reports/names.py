"""How reports name things: sides, locations, blocks, cards, lists.

A report names a block or card only by an id it was given (from a view or an event), so
these helpers can describe an id but never discover one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from ..i18n import N_, gettext, ngettext
from ..rules.components import Components
from ..words import HOW as HOW  # the words the referee's mail shows too (words.py)
from ..words import OTHER_NAMES as OTHER_NAMES
from ..words import SIDE_NAMES as SIDE_NAMES
from ..words import how as how
from ..words import named as _named
from ..words import side as side

SIDE_COLOURS = {"ishida": N_("gold"), "tokugawa": N_("black")}
STEP_NAMES = {
    "discard": N_("Reinforcement Step (discard half the hand)"),
    "bid": N_("Turn Order Step (sealed bids)"),
    "choose_first": N_("Turn Order Step (choosing the first player)"),
    "movement": N_("Movement Phase"),
    "combat": N_("Combat Phase"),
    "over": N_("game over"),
}
ABILITIES = {"gun": N_("gun"), "cavalry": N_("cavalry")}
# The map list's compact marks after a block's mon (model._short): its ability, then a
# leader's (L: vezér, V) or the protagonist's (P: főszereplő, F) letter.
MARKS = {"gun": N_("gun"), "cavalry": N_("cav"), "leader": N_("L"), "protagonist": N_("P")}
CARD_KINDS = {
    "plain": N_("plain"),
    "swords": N_("swords"),
    "double": N_("double"),
    "loyalty": N_("Loyalty Challenge"),
}
COUNTED: dict[str, Callable[[int], str]] = {
    "block": lambda k: ngettext("{n} block", "{n} blocks", k),
    "card": lambda k: ngettext("{n} card", "{n} cards", k),
    "discard": lambda k: ngettext("{n} discard", "{n} discards", k),
    "stack move": lambda k: ngettext("{n} stack move", "{n} stack moves", k),
    "move": lambda k: ngettext("{n} move", "{n} moves", k),
    "unit": lambda k: ngettext("{n} unit", "{n} units", k),
}


DECISIONS = {  # the kinds of decision (rules/decisions), in words (the files' names differ)
    "discard": N_("discard"),
    "bid": N_("bid"),
    "choose_first": N_("choosing the first player"),
    "movement": N_("movement"),
    "declare": N_("declare"),
    "castle": N_("castle"),
    "deploy": N_("deploy"),
    "challenge": N_("challenge"),
    "losses": N_("losses"),
    "retreat": N_("retreat"),
}


def decision(d: object) -> str:
    """A kind of decision in the reader's language, as a heading or a status line names it."""
    return _named(DECISIONS, d)


def colour(s: str) -> str:
    """A side's colour, as the rulebook names it (3.1)."""
    return _named(SIDE_COLOURS, s)


def step(s: str) -> str:
    return _named(STEP_NAMES, s)


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
    return gettext("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


def count(k: int, what: str) -> str:
    """'1 block', '3 blocks': `what` is a key of COUNTED, the plural by the language's
    rule (Hungarian keeps the noun singular after a number in both its forms: '3 tömb')."""
    return COUNTED[what](k).format(n=k)


def block_traits(comp: Components, block_id: str) -> str:
    """'Ukita, 3 mon, gun, leader' for a block id (the id itself if unknown)."""
    spec = comp.blocks.get(block_id)
    if spec is None:
        return ""
    traits = [comp.clan_names.get(spec.clan, spec.clan), gettext("{n} mon").format(n=spec.mon)]
    if spec.ability:
        traits.append(
            gettext(ABILITIES[spec.ability]) if spec.ability in ABILITIES else spec.ability
        )
    if spec.leader == 3:
        traits.append(gettext("protagonist"))
    elif spec.leader:
        traits.append(gettext("leader"))
    if spec.any_card:
        traits.append(gettext("any card"))
    return ", ".join(traits)


def block(comp: Components, block_id: str) -> str:
    """'ukita-3a (Ukita, 3 mon)'."""
    traits = block_traits(comp, block_id)
    return f"{block_id} ({traits})" if traits else str(block_id)


def unit(comp: Components, unit_id: str) -> str:
    """A block, or a disk by its name."""
    disk = comp.disks.get(unit_id)
    if disk is not None:
        return gettext("{id} (disk: {name})").format(id=unit_id, name=disk.name)
    return block(comp, unit_id)


def card_kind(kind: str) -> str:
    """A kind of card (3.3, 8.4, 8.6) in the reader's language."""
    name = CARD_KINDS.get(kind)
    return gettext(name) if name else kind


def card_traits(comp: Components, card_id: str) -> str:
    spec = comp.cards.get(card_id)
    if spec is None:
        return ""
    if spec.kind == "loyalty":
        return gettext("Loyalty Challenge, bid {bid}").format(bid=spec.bid)
    clan = comp.clan_names.get(spec.clan or "", spec.clan or "?")
    if spec.kind == "swords":
        return gettext("{clan} mon, swords, bid {bid}").format(clan=clan, bid=spec.bid)
    if spec.kind == "double":
        return gettext("{clan} mon, double, bid {bid}").format(clan=clan, bid=spec.bid)
    return gettext("{clan} mon, bid {bid}").format(clan=clan, bid=spec.bid)


def card(comp: Components, card_id: str) -> str:
    """'ukita-swords-1 (Ukita mon, swords, bid 20)'."""
    traits = card_traits(comp, card_id)
    return f"{card_id} ({traits})" if traits else str(card_id)


def cards(comp: Components, ids: list) -> str:
    return listing([card(comp, c) for c in ids])


def blocks(comp: Components, ids: list) -> str:
    return listing([block(comp, b) for b in ids])
