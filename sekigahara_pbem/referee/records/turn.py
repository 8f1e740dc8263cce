"""A player's turn file: the engine's actions in order (battle plans and resignation at
any moment), or an extension request. `check_timing` is asked by the referee before it
admits a file and by `verify` of every file in the archive (`replay`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import gettext as _
from ...i18n import ngettext
from ...protocol import documents as docs
from ...protocol import turns
from ...protocol.game import tool_version
from ...refusal import N_, Code, Phrase, Refusal
from ...rules.engine import pending
from ...rules.state_types import State
from .. import steps
from ..discrepancy import Discrepancy
from ..steps import Refused
from . import writer
from .context import Game, read_turn, started

if TYPE_CHECKING:
    from ..verify import Report
    from . import Walk


def check_timing(
    name: str, side: str, answers: int, free: bool, asked: dict, latest: int, answered
) -> None:
    """Refused unless the side is asked (or the file is of battle plans or resignation
    only) and the file answers a packet it may still answer (steps.stale)."""
    if side not in asked and not free:
        waiting = ", ".join(sorted(asked)) or Phrase(N_("nobody (the game is over)"))
        raise Refused(
            N_("no decision is asked of {side} now; waiting for {waiting}"),
            code=Code.NOT_ASKED,
            at=name,
            side=side,
            waiting=waiting,
        )
    problem = steps.stale(side, answers, free, asked, latest, answered)
    if problem is not None:
        raise Refused("{problem}", code=Code.STALE, at=name, problem=problem)


def admit(game: Game, name: str, text: str, now: str) -> str:
    """A turn file answering the last packet (or battle plans, resignation, an extension
    request at any moment): one record."""
    if turns.is_sealed(text):  # sealed by its player: opened here, kept as it came
        sealed, text = text, turns.unseal(game.definition, text, game.secrets.state_key, name)
        turn = turns.parse(game.definition, text, name)
    else:  # checked first, so that a refusal names the file; then sealed at rest
        turn = turns.parse(game.definition, text, name)
        sealed = turns.seal(game.definition, text, game.referee)
    record, state = started(game, name)
    free = steps.anytime(turn)
    asked = record.body.get("asked", {})
    answered = _answered(game, turn.side)
    check_timing(name, turn.side, turn.answers, free, asked, record.seq, answered)
    step = steps.turn_step(
        game.comp, state, turn, name, game.definition.deadlines, record.body.get("clock", {})
    )
    label = record_label(state, turn.side, step, free)
    path = game.gd.turn(record.seq + 1, turn.side)
    inputs = [{"file": f"turns/{path.name}", "sha256": docs.sha256(sealed)}]
    new = writer.write(
        game, record, state, writer.Draft(step, inputs, label, now, kept={path: sealed})
    )
    message = ngettext(
        "record {seq}: {label} ({count} action)",
        "record {seq}: {label} ({count} actions)",
        len(turn.actions),
    ).format(seq=new.seq, label=label, count=len(turn.actions))
    if turn.tool and turn.tool != tool_version():
        message += _("; note: sent with {tool}, the referee runs {version}").format(
            tool=turn.tool, version=tool_version()
        )
    return message


def _answered(game: Game, side: str) -> int | None:
    """The packet the side's last accepted turn file answered (None before its first)."""
    files = sorted((game.gd.root / "turns").glob(f"*-{side}.txt"))
    if not files:
        return None
    return read_turn(game, files[-1]).answers


def record_label(state: State, side: str, step: steps.Step, free: bool) -> str:
    """The label of a turn file's record, from the state before it (verify recomputes it:
    the public archive says nothing the replay does not)."""
    if step.extended:
        return f"extension for {side}"
    if step.state["result"] is not None and step.state["result"].get("how") == "resignation":
        return f"{side} resigned"
    if free:  # battle plans only: not the pending decision's answer (issue 19)
        return f"week {state['week']} turn {state['turn']}: {side} battle plan"
    return decision_label(state, side)


def decision_label(state: State, side: str) -> str:
    decision = next((d["decision"] for d in pending(state) if d["side"] == side), "?")
    return f"week {state['week']} turn {state['turn']}: {side} {decision}"


def replay(walk: Walk, where: str, seq: int, body: dict, report: Report) -> writer.Draft | None:
    """`seki verify` of a turn file's record: the file it names, bound to its game as the
    ones before it, answering in time (`check_timing`); once the secrets are revealed, the
    draft of the record: its turn replayed and labelled."""
    shown, turn, turn_text = walk.turn_file(where, seq, body)
    files = [(body["inputs"][0]["file"], turn_text)]
    walk.check_inputs(where, body, files)
    _check_bound(walk, where, seq, shown.bound and (turn is None or turn.bound), report)
    side = shown.side
    try:
        check_timing(where, side, shown.answers, shown.anytime, walk.asked, seq - 1,
                     walk.answered.get(side))  # fmt: skip
    except Refusal as exc:
        raise Discrepancy(
            N_("the referee accepted a turn file out of time: {reason}"), reason=exc
        ) from None
    walk.answered[side] = shown.answers
    report.turn_files += 1
    if shown.extension:
        walk.extended = side
    if walk.state is None or turn is None:
        return None
    try:
        step = steps.turn_step(
            walk.comp, walk.state, turn, where, walk.definition.deadlines, walk.clock
        )
    except Refusal as exc:
        raise Discrepancy(
            N_("the referee accepted a turn the rules refuse: {reason}"),
            at=where,
            reason=exc,
        ) from None
    label = record_label(walk.state, side, step, shown.anytime)
    walk.check_label(where, body, label)
    return writer.Draft(step, writer.inputs(files), label, body["time"])


def _check_bound(walk: Walk, where: str, seq: int, bound: bool, report: Report) -> None:
    """A turn file names its game's definition (protocol/binding.py) or, in a game begun
    before files were bound, none: noted, as such a file could be another game's with
    the same id; once one is bound, the referee runs a seki that refuses the others."""
    if bound:
        walk.bound_since = walk.bound_since or seq
        return
    if walk.bound_since is not None:
        raise Discrepancy(
            N_(
                "the turn file names no game definition, though those since record {seq} "
                "do: it could be from another game with the same id"
            ),
            at=where,
            seq=walk.bound_since,
        )
    note = _(
        "turn files name no game definition (made before seki bound them to game.txt): "
        "one from another game with the same id and keys could not be told apart"
    )
    if note not in report.notes:
        report.notes.append(note)
