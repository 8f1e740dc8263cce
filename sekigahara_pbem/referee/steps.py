"""What each kind of record does to the game, shared by the referee (which writes records)
and `seki verify` (which replays them), so the two cannot disagree.

Kinds: a turn file (the engine's actions, including resignation; or an extension request),
a missed deadline (the game's no-move policy for that side), and a takeback (the state
before the undone record).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import refusal
from ..protocol import clock as clocks
from ..protocol.turns import EXTENSION, Turn
from ..refusal import N_, Phrase, Refusal, side_words, sides_waiting
from ..rules.components import Components
from ..rules.defaults import passive_action
from ..rules.engine import ANYTIME, apply, pending
from ..rules.state_types import State
from ..rules.vocab import Malformed, RuleViolation

MAX_POLICY_ACTIONS = 200


class Refused(Refusal):
    """An input that is understood but cannot be applied now; the code says why."""


@dataclass(frozen=True)
class Step:
    state: State
    events: list
    actor: str | None  # the side whose decision was answered (it is asked anew)
    extended: str | None = None  # the side whose deadline was extended
    # a turn file of several actions: the state after each and its events (`seki replay`)
    stages: tuple[tuple[State, list], ...] = ()


def anytime(turn: Turn) -> bool:
    """A file of resignations and battle plans only: accepted whether or not its side is
    asked a decision, so `answers` may name any packet."""
    return all(a.get("type") in ANYTIME for a in turn.actions)


def stale(
    side: str, answers: int, free: bool, asked: dict, latest: int, answered: int | None
) -> Phrase | None:
    """Why the packet a turn file answers cannot be taken (in words put in the reader's
    language where shown), or None; the referee and
    `verify` both ask this, so they cannot disagree. `free`: a file of battle plans or
    resignation only; `asked`: for each side asked now, the
    record it was asked at; `latest`: the last record; `answered`: the packet the side's
    last accepted file answered. A file for the decision asked answers a packet from the
    one that asked it to the latest. A file of battle plans or a resignation, taken
    whether or not its side is asked, must answer a packet newer than any its side has
    answered, so it is taken once only, and an older plan cannot come back (by replay or
    by a late mail) over a newer one."""
    if free:
        oldest = (answered or 0) + 1
    elif side in asked:
        oldest = asked[side]
    else:
        return None
    if oldest <= answers <= latest:
        return None
    return Phrase(
        N_(
            "answers: {answers} is stale or unknown; {side} must answer a packet from "
            "{oldest} to {latest} (the latest)"
        ),
        answers=answers, side=side_words(side), oldest=oldest, latest=latest,
    )  # fmt: skip


def _asked(state: State, side: str) -> bool:
    return any(d["side"] == side for d in pending(state))


def turn_step(
    comp: Components,
    state: State,
    turn: Turn,
    name: str,
    settings: clocks.Settings | None,
    clock: dict,
) -> Step:
    """A turn file: an extension request, or the engine's actions in order."""
    if turn.actions == [EXTENSION]:
        return _extension(state, turn.side, name, settings, clock)
    if EXTENSION in turn.actions:
        raise Refused(
            N_("an extension request must be the file's only action"),
            at=f"{name}: actions",
        )
    events: list = []
    stages: list[tuple[State, list]] = []
    for i, action in enumerate(turn.actions):
        if action.get("type") not in ANYTIME and not _asked(state, turn.side):
            asked = pending(state)
            raise Refused(
                N_(
                    "it is no longer {side}'s decision (waiting for {who}); "
                    "send the remaining actions when asked"
                ),
                code=refusal.Code.NOT_ASKED,
                at=f"{name}: actions[{i}]",
                side=side_words(turn.side),
                who=sides_waiting(asked, decisions=True) if asked else Phrase(N_("nobody")),
            )
        try:
            state, new_events = apply(state, comp, turn.side, action)
        except (RuleViolation, Malformed) as exc:
            raise Refused(
                "{reason}", code=exc.code, rule=exc.rule, at=f"{name}: actions[{i}]", reason=exc
            ) from None
        events += new_events
        stages.append((state, new_events))
    return Step(state, events, turn.side, stages=tuple(stages) if len(stages) > 1 else ())


def _extension(
    state: State, side: str, name: str, settings: clocks.Settings | None, clock: dict
) -> Step:
    if settings is None:
        raise Refused(
            N_("this game has no deadlines, so there is nothing to extend"),
            code=refusal.Code.NO_EXTENSION,
            at=name,
        )
    if side not in clock:
        raise Refused(
            N_("no decision is asked of {side}, so there is no deadline to extend"),
            code=refusal.Code.NO_EXTENSION,
            at=name,
            side=side,
        )
    used = clock[side]["extensions"]
    if used >= settings.max_extensions:
        raise Refused(
            N_("extensions for this decision: {side} has had {used}, the game allows {allowed}"),
            code=refusal.Code.NO_EXTENSION,
            at=name,
            side=side,
            used=used,
            allowed=settings.max_extensions,
        )
    event = {"type": "extension", "side": side, "hours": settings.extension_hours}
    return Step(state, [event], None, extended=side)


def deadline_step(comp: Components, state: State, side: str, due: str, policy: str) -> Step:
    """A missed deadline: the game's declared policy answers for the side."""
    events: list = [{"type": "deadline_missed", "side": side, "due": due, "policy": policy}]
    if policy == "forfeit":
        state, more = apply(state, comp, side, {"type": "resign"})
        return Step(state, events + more, side)
    for _ in range(MAX_POLICY_ACTIONS):
        action = passive_action(state, comp, side)
        if action is None:
            break
        state, more = apply(state, comp, side, action)
        played = {"type": "played_for", "side": side, "private": {side: {"action": action}}}
        events += [played] + more
    return Step(state, events, side)


def takeback_step(restored: State, undone: int, requester: str) -> Step:
    """The state before the undone record, with an event saying so."""
    event = {"type": "takeback", "undone": undone, "requested_by": requester}
    return Step(restored, [event], None)
