"""Scenario cases: a position, a script of decisions and the results they must give.

The conformance suite (tests/scenarios/*.yaml) and any dispute a player sends are run
through `run_scenario`; docs/scenarios.md describes the format.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..i18n import explain
from ..i18n import gettext as _
from ..refusal import Refusal
from ..rules.components import Components
from ..rules.control import castles
from ..rules.cycle.setup import setup
from ..rules.engine import apply, pending
from ..rules.position import build_position
from ..rules.state_types import State
from ..rules.victory import points
from ..rules.views import redact_event, view
from ..rules.vocab import N_, OFF_MAP, SIDES, Malformed, RuleViolation

TOP_KEYS = {
    "scenario",
    "rules",
    "description",
    "components",
    "setup",
    "position",
    "steps",
    "expect",
}


@dataclass
class ScenarioResult:
    name: str
    rules: list[str]
    failures: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def matches(expected: Any, actual: Any) -> bool:
    """Partial match: every key the expectation names must match; lists match in full."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(matches(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return expected == actual


def _start(comp: Components, doc: dict) -> tuple[State, list]:
    if "setup" in doc:
        spec = doc["setup"] or {}
        if not isinstance(spec, dict):
            raise Malformed("setup", N_("expected a mapping with a seed"))
        try:
            return setup(comp, str(spec.get("seed", "00" * 16)), spec.get("options"))
        except Refusal as exc:
            raise Malformed("setup", "{reason}", reason=exc) from None
    return build_position(comp, doc.get("position", {})), []


def run_scenario(comp: Components, doc: Any) -> ScenarioResult:
    """Run one scenario document; a bad document fails, it does not raise (an exception
    out of here is the runner's bug or the engine's)."""
    if not isinstance(doc, dict):
        return ScenarioResult("?", [], [_("the scenario is not a mapping")])
    rules = doc.get("rules", [])
    result = ScenarioResult(
        str(doc.get("scenario", "unnamed")),
        [str(r) for r in rules] if isinstance(rules, list) else [],
    )
    unknown = sorted(str(k) for k in doc if k not in TOP_KEYS)
    if unknown:
        result.failures.append(_("unknown key '{key}' (a typo?)").format(key=unknown[0]))
        return result
    try:
        state, events = _start(comp, doc)
    except Malformed as exc:
        result.failures.append(f"position: {explain(exc)}")
        return result
    all_events = list(events)
    steps = doc.get("steps") or []
    if not isinstance(steps, list):
        result.failures.append("steps: " + _("expected a list"))
        return result
    result.log += [_line(e) for e in events]
    for i, step in enumerate(steps, 1):
        state, step_events = _run_step(comp, state, step, i, result)
        all_events += step_events
        result.log += [f"step {i}: {_line(e)}" for e in step_events]
        if result.failures:
            break
    if not result.failures:
        result.failures += _check(comp, state, all_events, doc.get("expect") or {}, "expect")
    return result


def _line(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False, sort_keys=True)


def _run_step(
    comp: Components, state: State, step: Any, i: int, result: ScenarioResult
) -> tuple[State, list]:
    where = f"step {i}"
    if not isinstance(step, dict) or "side" not in step or "action" not in step:
        result.failures.append(f"{where}: " + _("expected a mapping with side and action"))
        return state, []
    want_error = step.get("expect_error")
    try:
        new, events = apply(state, comp, step["side"], step["action"])
    except (RuleViolation, Malformed) as exc:
        code = exc.rule if isinstance(exc, RuleViolation) else "malformed"
        result.log.append(f"{where}: " + _("refused: {reason}").format(reason=explain(exc)))
        if want_error is None:
            result.failures.append(
                f"{where}: " + _("refused unexpectedly: {reason}").format(reason=explain(exc))
            )
        elif str(want_error) != code:
            text = _("refused under {code} ({reason}), expected {wanted}")
            result.failures.append(
                f"{where}: " + text.format(code=code, reason=explain(exc), wanted=want_error)
            )
        else:
            result.failures += _check(comp, state, [], step.get("expect") or {}, where)
        return state, []
    if want_error is not None:
        text = _("accepted, but a refusal under {wanted} was expected").format(wanted=want_error)
        result.failures.append(f"{where}: {text}")
        return new, events
    result.failures += _check(comp, new, events, step.get("expect") or {}, where)
    return new, events


def _check(comp: Components, state: State, events: list, expect: Any, where: str) -> list[str]:
    """Each expectation checked by its key's check, once its value has the shape that check
    takes: a value of another shape is the scenario file's mistake, said as the shape the
    key takes. A check that then fails on a value of its own shape is a bug, and is left
    to surface as one."""
    if not isinstance(expect, dict):
        return [f"{where}: " + _("expect must be a mapping")]
    fails: list[str] = []
    for key, want in expect.items():
        check = CHECKS.get(key)
        if check is None:
            fails.append(f"{where}: " + _("unknown expectation '{key}'").format(key=key))
            continue
        if check.shape is not None and not check.shape.fits(want):
            fails.append(f"{where}: {key}: " + _(check.shape.words))
            continue
        fails += [f"{where}: {key}: {problem}" for problem in check.run(comp, state, events, want)]
    return fails


def _check_blocks(comp: Components, state: State, events: list, want: dict) -> list[str]:
    out = []
    for loc, ids in want.items():
        if loc not in comp.locations and loc not in OFF_MAP:
            out.append(_("unknown location or box '{value}'").format(value=loc))
            continue
        have = sorted(b for b, w in state["blocks"].items() if w == loc)
        if sorted(ids) != have:
            out.append(
                _("{where} holds {have}, expected {wanted}").format(
                    where=loc, have=have, wanted=sorted(ids)
                )
            )
    return out


def _check_stacks(comp: Components, state: State, events: list, want: dict) -> list[str]:
    out = []
    for loc, counts in want.items():
        have = {
            s: sum(1 for b, w in state["blocks"].items() if w == loc and comp.blocks[b].side == s)
            for s in SIDES
        }
        for s, n in counts.items():
            if have.get(s) != n:
                text = _("{where} has {have} {side} blocks, expected {wanted}")
                out.append(text.format(where=loc, have=have.get(s), side=s, wanted=n))
    return out


# The keys of the state (or, for castles, what control.castles reads from it) that the
# expectations of the same names compare: a key the state does not have is a type error.
MapKey = Literal["control", "castles", "besieged", "disks"]
ScalarKey = Literal["step", "week", "turn", "active", "first", "bid_winner", "result"]


def _check_map(field_name: MapKey):
    def check(comp: Components, state: State, events: list, want: dict) -> list[str]:
        have = castles(state, comp) if field_name == "castles" else state[field_name]
        return [
            _("{where} is {have}, expected {wanted}").format(
                where=loc, have=have.get(loc), wanted=side
            )
            for loc, side in want.items()
            if have.get(loc) != side
        ]

    return check


def _check_scalar(name: ScalarKey):
    def check(comp: Components, state: State, events: list, want: Any) -> list[str]:
        return (
            []
            if matches(want, state[name])
            else [
                _("is {have}, expected {wanted}").format(have=repr(state[name]), wanted=repr(want))
            ]
        )

    return check


def _check_cards(pile: str, count: bool):
    def check(comp: Components, state: State, events: list, want: dict) -> list[str]:
        out = []
        for side, value in want.items():
            have = state["cards"][side][pile]
            if count and len(have) != value:
                out.append(
                    _("{side} has {have}, expected {wanted}").format(
                        side=side, have=len(have), wanted=value
                    )
                )
            if not count and sorted(have) != sorted(value):
                out.append(
                    _("{side} has {have}, expected {wanted}").format(
                        side=side, have=sorted(have), wanted=sorted(value)
                    )
                )
        return out

    return check


def _check_events(comp: Components, state: State, events: list, want: list) -> list[str]:
    return [
        _("no event matches {event}").format(event=w)
        for w in want
        if not any(matches(w, e) for e in events)
    ]


def _check_no_events(comp: Components, state: State, events: list, want: list) -> list[str]:
    return [
        _("an event matches {event}").format(event=w)
        for w in want
        if any(matches(w, e) for e in events)
    ]


def _check_phase(comp: Components, state: State, events: list, want: dict) -> list[str]:
    return (
        []
        if matches(want, state["phase"])
        else [_("is {have}, expected {wanted}").format(have=state["phase"], wanted=want)]
    )


def _check_fight(comp: Components, state: State, events: list, want: Any) -> list[str]:
    fight = state["combat"]["fight"] if state["combat"] else None
    return (
        []
        if matches(want, fight)
        else [_("is {have}, expected {wanted}").format(have=fight, wanted=want)]
    )


def _check_pending(comp: Components, state: State, events: list, want: Any) -> list[str]:
    have = pending(state)
    return (
        []
        if matches(want, have)
        else [_("is {have}, expected {wanted}").format(have=have, wanted=want)]
    )


def _check_points(comp: Components, state: State, events: list, want: dict) -> list[str]:
    have = points(state, comp)
    return (
        []
        if matches(want, have)
        else [_("are {have}, expected {wanted}").format(have=have, wanted=want)]
    )


def _check_view(comp: Components, state: State, events: list, want: dict) -> list[str]:
    out = []
    for who, partial in want.items():
        v = view(state, comp, None if who == "public" else who)
        if not matches(partial, v):
            out.append(_("{who}'s view does not match {wanted}").format(who=who, wanted=partial))
    return out


def _check_hidden(comp: Components, state: State, events: list, want: dict) -> list[str]:
    """Names that must not appear in a side's view or its redacted events."""
    out = []
    for who, names in want.items():
        side = None if who == "public" else who
        text = json.dumps([view(state, comp, side), [redact_event(e, side) for e in events]])
        out += [
            _("'{name}' appears in what {who} sees").format(name=n, who=who)
            for n in names
            if f'"{n}"' in text
        ]
    return out


@dataclass(frozen=True)
class Shape:
    """The form of value an expectation's key takes (docs/scenarios.md, Expectations):
    `fits` tells it, `words` say it to the scenario's author when the value has another."""

    words: str  # marked with N_, translated where it is shown
    fits: Callable[[Any], bool]


@dataclass(frozen=True)
class Check:
    """One key of `expect:`: the shape of its value (None: any value, compared with
    `matches`), and the check run on a value of that shape, which returns its failures."""

    shape: Shape | None
    run: Callable[[Components, State, list, Any], list[str]]


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _mapping(value: Any) -> bool:
    return isinstance(value, dict)


def _side(value: Any) -> bool:
    return isinstance(value, str) and value in SIDES


def _viewer(value: Any) -> bool:
    return value == "public" or _side(value)


def _or_null(fits: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or fits(value)


def _list_of(item: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(item(v) for v in value)


def _mapping_of(key: Callable[[Any], bool], value: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda want: isinstance(want, dict) and all(key(k) and value(v) for k, v in want.items())


BLOCK_LISTS = Shape(
    N_("expected a mapping of location to a list of block ids"), _mapping_of(_text, _list_of(_text))
)
SIDE_COUNTS = Shape(
    N_("expected a mapping of location to a mapping of side to a number of blocks"),
    _mapping_of(_text, _mapping_of(_side, _count)),
)
OWNERS = Shape(
    N_("expected a mapping of location to a side or null"), _mapping_of(_text, _or_null(_side))
)
DISK_PLACES = Shape(
    N_("expected a mapping of disk to a location or eliminated"), _mapping_of(_text, _text)
)
MAPPING_OR_NULL = Shape(N_("expected a mapping or null"), _or_null(_mapping))
CARD_LISTS = Shape(
    N_("expected a mapping of side to a list of card ids"), _mapping_of(_side, _list_of(_text))
)
CARD_COUNTS = Shape(
    N_("expected a mapping of side to a number of cards"), _mapping_of(_side, _count)
)
EVENT_PATTERNS = Shape(N_("expected a list of event patterns (mappings)"), _list_of(_mapping))
MAPPING = Shape(N_("expected a mapping"), _mapping)
LIST = Shape(N_("expected a list"), lambda value: isinstance(value, list))
POINTS = Shape(N_("expected a mapping of side to a number of points"), _mapping_of(_side, _count))
VIEWS = Shape(
    N_("expected a mapping of public, ishida or tokugawa to a partial view (a mapping)"),
    _mapping_of(_viewer, _mapping),
)
NAMES_UNSEEN = Shape(
    N_("expected a mapping of public, ishida or tokugawa to a list of names"),
    _mapping_of(_viewer, _list_of(_text)),
)

CHECKS = {
    "blocks": Check(BLOCK_LISTS, _check_blocks),
    "stacks": Check(SIDE_COUNTS, _check_stacks),
    "control": Check(OWNERS, _check_map("control")),
    "castles": Check(OWNERS, _check_map("castles")),
    "besieged": Check(OWNERS, _check_map("besieged")),
    "disks": Check(DISK_PLACES, _check_map("disks")),
    "step": Check(None, _check_scalar("step")),
    "week": Check(None, _check_scalar("week")),
    "turn": Check(None, _check_scalar("turn")),
    "active": Check(None, _check_scalar("active")),
    "first": Check(None, _check_scalar("first")),
    "bid_winner": Check(None, _check_scalar("bid_winner")),
    "result": Check(MAPPING_OR_NULL, _check_scalar("result")),
    "hand": Check(CARD_LISTS, _check_cards("hand", count=False)),
    "hand_size": Check(CARD_COUNTS, _check_cards("hand", count=True)),
    "discard": Check(CARD_LISTS, _check_cards("discard", count=False)),
    "discard_size": Check(CARD_COUNTS, _check_cards("discard", count=True)),
    "deck_size": Check(CARD_COUNTS, _check_cards("deck", count=True)),
    "events": Check(EVENT_PATTERNS, _check_events),
    "no_events": Check(EVENT_PATTERNS, _check_no_events),
    "phase": Check(MAPPING, _check_phase),
    "fight": Check(MAPPING_OR_NULL, _check_fight),
    "pending": Check(LIST, _check_pending),
    "points": Check(POINTS, _check_points),
    "view": Check(VIEWS, _check_view),
    "hidden": Check(NAMES_UNSEEN, _check_hidden),
}
