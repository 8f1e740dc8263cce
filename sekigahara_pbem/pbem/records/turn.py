"""A player's turn file: the engine's actions in order (battle plans and resignation at
any moment), or an extension request. `check_timing` is asked by the referee before it
admits a file and by `verify` of every file in the archive."""

from __future__ import annotations

from ...i18n import gettext as _
from ...refusal import N_, Code, Phrase
from ...rules.engine import pending
from .. import documents as docs
from .. import steps, turns
from ..game import tool_version
from ..steps import Refused
from . import writer
from .context import Game, read_turn, started


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
    message = _("record {seq}: {label} ({count} action(s))").format(
        seq=new.seq, label=label, count=len(turn.actions)
    )
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


def record_label(state: dict, side: str, step: steps.Step, free: bool) -> str:
    """The label of a turn file's record, from the state before it (verify recomputes it:
    the public archive says nothing the replay does not)."""
    if step.extended:
        return f"extension for {side}"
    if step.state["result"] is not None and step.state["result"].get("how") == "resignation":
        return f"{side} resigned"
    if free:  # battle plans only: not the pending decision's answer (issue 19)
        return f"week {state['week']} turn {state['turn']}: {side} battle plan"
    return decision_label(state, side)


def decision_label(state: dict, side: str) -> str:
    decision = next((d["decision"] for d in pending(state) if d["side"] == side), "?")
    return f"week {state['week']} turn {state['turn']}: {side} {decision}"
