"""Deadlines: how long each side has for a decision, reminders, extensions, and what happens
when a deadline passes (docs/protocol.md, "Deadlines").

Time is an input: every function here takes `now` from the command (its `--now` or the
system clock, read once in commands/common.py); the rules engine never sees a clock. Each
record of a game with deadlines carries a `clock`: for every side asked to decide, when
its time runs out and how many extensions it has had for this decision. The clock is a
pure function of the previous clock, who is asked since when, and the record's time, so
`seki verify` recomputes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ..i18n import gettext as _
from ..i18n import ngettext
from ..refusal import N_, Refusal, quoted

POLICIES = {
    "pass": "the engine's passive choice for each decision (rules/defaults.py)",
    "forfeit": "the side that missed the deadline resigns",
}
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
MAX_HOURS = 24 * 365


@dataclass(frozen=True)
class Settings:
    hours: int  # per decision
    reminder_hours: int  # a reminder when this much time is left
    extension_hours: int  # added by one extension
    max_extensions: int  # per decision
    policy: str  # what a missed deadline does (POLICIES)

    def as_dict(self) -> dict:
        return {
            "hours": self.hours,
            "reminder_hours": self.reminder_hours,
            "extension_hours": self.extension_hours,
            "max_extensions": self.max_extensions,
            "policy": self.policy,
        }


DEFAULTS = Settings(
    hours=72, reminder_hours=24, extension_hours=48, max_extensions=1, policy="pass"
)


def parse_settings(raw: object, where: str) -> Settings:
    """Deadline settings from a game definition, every field checked."""
    if not isinstance(raw, dict):
        raise Refusal(N_("expected a mapping"), at=f"{where}: deadlines")
    unknown = [k for k in raw if k not in DEFAULTS.as_dict()]  # keys of any type
    if unknown:
        raise Refusal(N_("unknown field {name}"), at=f"{where}: deadlines", name=quoted(unknown[0]))
    values = {**DEFAULTS.as_dict(), **raw}
    for name in ("hours", "reminder_hours", "extension_hours", "max_extensions"):
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_HOURS:
            raise Refusal(
                N_("expected a whole number 0–{most}"),
                at=f"{where}: deadlines: {name}",
                most=MAX_HOURS,
            )
    if values["hours"] < 1:
        raise Refusal(N_("at least 1"), at=f"{where}: deadlines: hours")
    if values["policy"] not in POLICIES:
        raise Refusal(
            N_("expected one of {words}"),
            at=f"{where}: deadlines: policy",
            words=", ".join(POLICIES),
        )
    return Settings(**values)


def parse_time(text: object, where: str) -> datetime:
    """A UTC time as the records write it (2026-11-22T10:00:00Z)."""
    try:
        return datetime.strptime(str(text), TIME_FORMAT).replace(tzinfo=UTC)
    except ValueError:  # boundary: strptime reports a time not in the format by raising
        raise Refusal(
            N_("{text} is not a UTC time like 2026-11-22T10:00:00Z"),
            at=where,
            text=quoted(text),
        ) from None


def format_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(TIME_FORMAT)


def _add_hours(text: str, hours: int) -> str:
    return format_time(parse_time(text, "clock") + timedelta(hours=hours))


def next_clock(
    settings: Settings, previous: dict, asked: dict, seq: int, now: str, extended: str | None
) -> dict:
    """The clock after record `seq`: a side asked anew gets the full time from now; a side
    still facing the same decision keeps its deadline (plus one extension if `extended`)."""
    clock = {}
    for side, since in sorted(asked.items()):
        entry: dict[str, Any]
        if since == seq or side not in previous:
            entry = {"due": _add_hours(now, settings.hours), "extensions": 0}
        else:
            entry = dict(previous[side])
        if side == extended:
            entry = {
                "due": _add_hours(entry["due"], settings.extension_hours),
                "extensions": entry["extensions"] + 1,
            }
        clock[side] = entry
    return clock


def overdue(clock: dict, now: str) -> list[str]:
    """The sides whose deadline has passed, in a fixed order."""
    moment = parse_time(now, "now")
    return [s for s, e in sorted(clock.items()) if parse_time(e["due"], "clock") < moment]


def reminder_due(settings: Settings, clock: dict, now: str) -> list[str]:
    """The sides inside the reminder window (and not yet overdue)."""
    moment = parse_time(now, "now")
    out = []
    for side, entry in sorted(clock.items()):
        due = parse_time(entry["due"], "clock")
        if due - timedelta(hours=settings.reminder_hours) <= moment <= due:
            out.append(side)
    return out


def time_left(due: str, now: str) -> str:
    """'2 days 3 h left' / '5 h overdue', for people (in the reader's language)."""
    delta = parse_time(due, "due") - parse_time(now, "now")
    late = delta < timedelta(0)
    minutes = int(abs(delta).total_seconds()) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        text = ngettext("{days} day {hours} h", "{days} days {hours} h", days)
    elif hours:
        text = _("{hours} h {mins} min")
    else:
        text = _("{mins} min")
    text = text.format(days=days, hours=hours, mins=mins)
    return (_("{time} overdue") if late else _("{time} left")).format(time=text)
