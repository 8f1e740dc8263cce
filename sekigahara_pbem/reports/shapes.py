"""The shape of each event and option the reports put in words, checked before they do.

Events and options reach a report from the engine, but also from a packet or a record
another party wrote: a newer engine, a hand-edited archive, a hostile referee. One that
is not of its kind's shape is described generically (`type: key value; ...`). The check
is made here, field by field, rather than by catching what a describer raises: a
describer that fails on a well-shaped event is a bug, and surfaces as one (issue 29).

A shape lists the fields its describer reads and what each must hold; an event may hold
more. `tests/test_report_shapes.py` checks that every event and option of random games
(whole, and as each side and the public see it) fits its shape, so the table cannot drift
from the engine."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.components import Components

Check = Callable[[object, Components], bool]
Shape = Callable[[dict, Components], bool]


def _text(value: object, comp: Components) -> bool:
    return isinstance(value, str)


def _whole(value: object, comp: Components) -> bool:
    return type(value) is int


def _anything(value: object, comp: Components) -> bool:
    return True


def _block(value: object, comp: Components) -> bool:
    return isinstance(value, str) and value in comp.blocks


def list_of(item: Check) -> Check:
    """A list whose every item is `item`."""
    return lambda value, comp: isinstance(value, list) and all(item(v, comp) for v in value)


def map_of(item: Check) -> Check:
    """A mapping of text keys whose every value is `item`."""
    return lambda value, comp: (
        isinstance(value, dict)
        and all(isinstance(k, str) and item(v, comp) for k, v in value.items())
    )


def either(*checks: Check) -> Check:
    return lambda value, comp: any(check(value, comp) for check in checks)


def record(**fields: Check) -> Check:
    """A mapping holding each of `fields` as its check says (more keys may follow)."""
    return lambda value, comp: (
        isinstance(value, dict)
        and all(key in value and check(value[key], comp) for key, check in fields.items())
    )


def optional(check: Check) -> Check:
    """Absent, null, or `check` (a describer that reads the field with .get)."""
    return either(lambda value, comp: value is None, check)


def fields(**checks: Check) -> Shape:
    """An event or option holding each field as its check says; an `optional` field may be
    absent (a describer reads those with .get)."""

    def fits(item: dict, comp: Components) -> bool:
        return all(check(item.get(key), comp) for key, check in checks.items())

    return fits


TEXT, WHOLE, ANY, BLOCK = _text, _whole, _anything, _block
TEXTS = list_of(TEXT)
NUMBERS = map_of(WHOLE)  # side -> a number: impact, losses, forces, points
OPT = optional
IMPACTS = list_of(record(mon=WHOLE, same_daimyo=WHOLE, special=WHOLE))
GROUP_SEEN = record(count=WHOLE, path=TEXTS)  # a group as the other side sees it moving
GROUP_OWN = TEXTS  # a group in the mover's own copy: its blocks

EVENTS: dict[str, Shape] = {
    "plan": fields(side=ANY),
    "by_plan": fields(side=ANY, decision=ANY, location=OPT(ANY)),
    "draw": fields(side=ANY, count=WHOLE, cards=OPT(TEXTS)),
    "reshuffle": fields(side=ANY, cards=WHOLE),
    "discard": fields(side=ANY, cards=TEXTS, why=OPT(TEXT)),
    "setup_random": fields(side=ANY, location=ANY, count=WHOLE, blocks=OPT(TEXTS)),
    "reinforcements": fields(side=ANY, count=WHOLE, blocks=OPT(TEXTS)),
    "sealed": fields(side=ANY, step=OPT(TEXT)),
    "bids": fields(bids=map_of(TEXT), winner=ANY),
    "first_player": fields(side=ANY, first=ANY),
    "week": fields(week=ANY),
    "movement_level": fields(side=ANY, level=TEXT),
    "move": fields(
        side=ANY,
        groups=list_of(either(GROUP_SEEN, GROUP_OWN)),
        blocks=OPT(list_of(OPT(TEXTS))),
        leadership=OPT(TEXT),
        **{"from": TEXT},
    ),
    "muster": fields(side=ANY, to=ANY, count=WHOLE, blocks=OPT(TEXTS)),
    "mori": fields(side=ANY, to=ANY, blocks=TEXTS),
    "overrun": fields(side=ANY, location=ANY, blocks=WHOLE, eliminated=TEXTS),
    "control": fields(side=ANY, location=ANY),
    "end_movement": fields(side=ANY),
    "declare": fields(attacker=ANY, location=ANY),
    "castle_choice": fields(side=ANY, location=ANY, inside=ANY),
    "no_combat": fields(side=ANY, location=ANY),
    "battle": fields(location=ANY, attacker=ANY, defender=ANY, forces=NUMBERS),
    "siege": fields(location=ANY, attacker=ANY, defender=ANY, forces=NUMBERS, disks=OPT(TEXTS)),
    "deploy": fields(
        side=ANY, location=ANY, blocks=TEXTS, impacts=IMPACTS, impact=NUMBERS, card=OPT(TEXT)
    ),
    "finish": fields(side=ANY, location=ANY, why=OPT(ANY)),
    "challenge": lambda e, comp: (
        fields(
            side=ANY, location=ANY, card=TEXT, blocks=TEXTS, shown=OPT(TEXT), impact=OPT(NUMBERS)
        )(e, comp)
        and (e.get("result") == "loyal" or NUMBERS(e.get("impact"), comp))
    ),  # the new totals
    "battle_result": fields(location=ANY, winner=ANY, losses=NUMBERS, impact=NUMBERS),
    "siege_result": fields(location=ANY, losses=NUMBERS, impact=NUMBERS),
    "losses": fields(side=ANY, location=ANY, units=TEXTS),
    "castle_falls": fields(side=ANY, location=ANY),
    "retreat": fields(
        side=ANY,
        location=ANY,
        to=OPT(TEXT),
        count=WHOLE,
        blocks=OPT(TEXTS),
        castle=ANY,
        castle_blocks=OPT(TEXTS),
    ),
    "game_over": lambda e, comp: (
        fields(winner=ANY, points=OPT(NUMBERS))(e, comp)
        and (e.get("how") != "points" or NUMBERS(e.get("points"), comp))
    ),  # the score, on points
}

OPTIONS: dict[str, Shape] = {
    "discard": fields(cards=TEXTS),
    "bid": fields(card=TEXT),
    "choose_first": fields(first=ANY),
    "level": fields(level=TEXT, cards=OPT(TEXTS)),
    "end_movement": fields(),
    "muster": fields(option=ANY, blocks=TEXTS, to=ANY),
    "mori": fields(blocks=TEXTS, cards=TEXTS),
    "move": fields(
        groups=list_of(record(blocks=TEXTS, path=TEXTS)), leader=OPT(ANY), **{"from": ANY}
    ),
    "declare": fields(location=TEXT),
    "castle": fields(inside=ANY),
    "deploy": fields(blocks=list_of(BLOCK), card=OPT(TEXT)),
    "finish": fields(),
    "challenge": fields(card=ANY),
    "decline": fields(),
    "losses": fields(units=TEXTS),
    "retreat": fields(to=OPT(TEXT), castle=OPT(TEXTS)),
}


def fits(item: object, table: dict[str, Shape], comp: Components) -> bool:
    """Whether `item` is a mapping of a type the table knows, of that type's shape."""
    if not isinstance(item, dict):
        return False
    kind = item.get("type")
    return isinstance(kind, str) and kind in table and table[kind](item, comp)
