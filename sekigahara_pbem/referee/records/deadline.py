"""A missed deadline: the game's declared no-move policy answers for the side (docs/
referee.md). `check` is asked when the referee applies the policy and by `verify` of every
deadline record."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from ...crypto.keys import Identity
from ...i18n import gettext as _
from ...protocol import chain
from ...protocol import clock as clocks
from ...protocol.store import locked
from ...refusal import N_, Refusal
from ...rules.state_types import State
from ...rules.vocab import SIDES
from .. import steps
from ..discrepancy import wrapped
from ..steps import Refused
from . import writer
from .context import Game, Outcome, current, open_game
from .turn import decision_label

if TYPE_CHECKING:
    from ..verify import Report
    from . import Walk

KIND = "deadline"


def check(
    spec: object, clock: dict, settings: clocks.Settings | None, time: str
) -> tuple[object, clocks.Settings]:
    """The side whose deadline the record's input names, if the record before set that
    deadline, the policy is the game's and the deadline has passed at `time`; with the
    game's deadlines. The side is what the input names: a key of the record before's
    clock, which in an archive not yet revealed is the record's word alone."""
    if settings is None or not isinstance(spec, dict):
        raise Refused(N_("a deadline record in a game without deadlines"))
    side, due = spec.get("deadline"), spec.get("due")
    if side not in clock or clock[side].get("due") != due:
        raise Refused(N_("names a deadline the record before did not set"))
    if spec.get("policy") != settings.policy:
        raise Refused(N_("applies another policy than game.txt declares"))
    if not clocks.overdue({side: clock[side]}, time):
        raise Refused(N_("applied the policy before the deadline had passed"))
    return side, settings


def enforce(root: Path, referee: Identity, now: str) -> list[Outcome]:
    """Apply the game's no-move policy for every side whose deadline has passed."""
    outcomes: list[Outcome] = []
    with locked(root):
        game = open_game(root, referee)
        settings = game.definition.deadlines
        if settings is None:
            return outcomes
        for _round in range(len(SIDES) * steps.MAX_POLICY_ACTIONS):
            at = current(game)
            if at is None:
                break
            record, state = at
            late = clocks.overdue(record.body.get("clock", {}), now)
            if not late:
                break
            outcomes.append(_apply(game, settings, record, state, late[0], now))
    return outcomes


def record_label(state: State, side: str, due: str, policy: str) -> str:
    """The label of a missed deadline's record (verify recomputes it)."""
    return f"{decision_label(state, side)}: deadline {due} missed, policy {policy}"


def replay(walk: Walk, where: str, seq: int, body: dict, report: Report) -> writer.Draft | None:
    """`seki verify` of a missed deadline's record: `check` against the record before;
    once the secrets are revealed, the draft of the record: the policy's answer replayed
    and labelled."""
    spec = (body.get("inputs") or [None])[0]
    try:
        named, settings = check(spec, walk.clock, walk.definition.deadlines, body["time"])
    except Refusal as exc:
        raise wrapped(where, exc) from None
    if walk.state is None:
        return None
    # revealed: the record before was the replay's (verify._Replay._check_whole), so the
    # sides its clock names, one of which `check` found named, are sides
    side = cast(str, named)
    label = record_label(walk.state, side, spec["due"], settings.policy)
    walk.check_label(where, body, label)
    step = steps.deadline_step(walk.comp, walk.state, side, spec["due"], settings.policy)
    spec = {"deadline": side, "due": spec["due"], "policy": settings.policy}
    return writer.Draft(step, [spec], label, body["time"], {"kind": KIND})


def _apply(
    game: Game,
    settings: clocks.Settings,
    record: chain.Record,
    state: State,
    side: str,
    now: str,
) -> Outcome:
    clock = record.body["clock"]
    due = clock[side]["due"]
    spec = {"deadline": side, "due": due, "policy": settings.policy}  # as `replay` has it
    check(spec, clock, settings, now)
    step = steps.deadline_step(game.comp, state, side, due, settings.policy)
    label = record_label(state, side, due, settings.policy)
    draft = writer.Draft(step, [spec], label, now, {"kind": KIND})
    new = writer.write(game, record, state, draft)
    message = _("record {seq}: {label}").format(seq=new.seq, label=label)
    return Outcome(f"deadline:{side}", True, message)
