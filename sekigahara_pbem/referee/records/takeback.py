"""A takeback: a signed request to undo the last record, the other side's signed answer,
and, when accepted, a record restoring the state before (protocol/takebacks.py has the
documents). `check_undo` is asked when the referee admits a request or an acceptance and
by `verify` of every takeback record; it needs only the undone record, so verify checks
it before the reveal too."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from ...i18n import gettext as _
from ...protocol import chain, takebacks
from ...protocol import documents as docs
from ...protocol.game import Definition
from ...protocol.store import write_atomic
from ...refusal import N_, Code, Refusal
from ...rules.vocab import other
from .. import steps
from ..discrepancy import wrapped
from ..steps import Refused
from . import writer
from .context import Game, started, state_at

if TYPE_CHECKING:
    from ..verify import Report
    from . import Walk

KIND = "takeback"


def check_undo(request: takebacks.Request, record: chain.Record, name: str) -> None:
    """The request names the last record, by number and hash, and that record may be
    undone (not the setup, a takeback, an opening of commitments, a draw the requester
    saw, or the end of the game)."""
    if request.undo != record.seq or request.record != record.hash:
        raise Refused(
            N_("undo: only the last adjudication (record {seq}) can be taken back"),
            code=Code.NOT_UNDOABLE,
            at=name,
            seq=record.seq,
        )
    reason = takebacks.why_not_undoable(record.seq, record.body, request.side)
    if reason is not None:
        raise Refused(
            N_("takeback refused: {reason}"), code=Code.NOT_UNDOABLE, at=name, reason=reason
        )


def admit_request(game: Game, name: str, text: str, now: str) -> str:
    """A side's request to undo the last record, kept until the other side answers (`now`
    unused: a request writes no record)."""
    request = takebacks.parse_request(game.definition, text, name)
    record, _state = started(game, name)
    check_undo(request, record, name)
    path = game.gd.request(request.undo, "takeback", request.side)
    if path.exists():
        raise Refused(
            N_("{side} has already asked to take back record {seq}"),
            code=Code.DUPLICATE,
            at=name,
            side=request.side,
            seq=request.undo,
        )
    write_atomic(path, text)
    game.commit(f"takeback of record {request.undo} requested by {request.side}")
    return _(
        "takeback of record {seq} requested by {side}; waiting for {other} to accept or refuse"
    ).format(seq=request.undo, side=request.side, other=other(request.side))


def admit_consent(game: Game, name: str, text: str, now: str) -> str:
    consent = takebacks.parse_consent(game.definition, text, name)
    record, state = started(game, name)
    requester = other(consent.side)
    path = game.gd.request(record.seq, "takeback", requester)
    if not path.is_file():
        raise Refused(
            N_("there is no open takeback request of record {seq}"),
            at=name,
            seq=record.seq,
        )
    on_file = docs.read_capped(path)  # taken before documents were bound, maybe
    request = takebacks.parse_request(game.definition, on_file, str(path), archived=True)
    takebacks.check_consent(request, consent, name)
    answer_path = game.gd.request(record.seq, "consent", consent.side)
    if answer_path.exists():
        raise Refused(
            N_("the takeback of record {seq} has already been answered"),
            code=Code.DUPLICATE,
            at=name,
            seq=record.seq,
        )
    if consent.answer == "refuse":
        write_atomic(answer_path, text)
        game.commit(f"takeback of record {record.seq} refused by {consent.side}")
        return _("takeback of record {seq} refused by {side}").format(
            seq=record.seq, side=consent.side
        )
    check_undo(request, record, name)
    step = steps.takeback_step(state_at(game, record.seq - 1), record.seq, requester)
    inputs = writer.inputs(
        [(f"requests/{p.name}", t) for p, t in ((path, request.text), (answer_path, text))]
    )
    label = record_label(record.seq, requester)
    draft = writer.Draft(
        step, inputs, label, now, {"kind": KIND, "undo": record.seq}, {answer_path: text}
    )
    new = writer.write(game, record, state, draft)
    return _("record {seq}: {label}").format(seq=new.seq, label=label)


def record_label(undone: int, requester: str) -> str:
    """The label of a takeback's record: the other side accepted it (verify recomputes it)."""
    return f"takeback of record {undone} (asked by {requester}, accepted by {other(requester)})"


def recheck(
    root: Path, definition: Definition, where: str, body: dict, undone: chain.Record
) -> tuple[str, list[tuple[str, str]]]:
    """A takeback record in the archive: its request and accepted answer, signed by the
    two sides, undo the record before it. Returns the requester and the input files."""
    texts = []
    for item in body.get("inputs") or []:
        name = str(item.get("file", "")) if isinstance(item, dict) else ""
        path = root / name
        if path.parent.name != "requests" or not path.is_file():
            raise Refused(N_("input {name} is missing"), at=where, name=name)
        texts.append((name, docs.read_capped(path)))
    if len(texts) != 2:
        raise Refused(N_("a takeback needs a request and a consent"), at=where)
    request = takebacks.parse_request(definition, texts[0][1], texts[0][0], archived=True)
    consent = takebacks.parse_consent(definition, texts[1][1], texts[1][0], archived=True)
    takebacks.check_consent(request, consent, texts[1][0])
    if consent.answer != "accept":
        raise Refused(N_("the takeback was refused, not accepted"), at=where)
    if body.get("undo") != undone.seq:
        raise Refused(N_("the takeback does not undo the record before it"), at=where)
    check_undo(request, undone, where)
    return request.side, texts


def replay(walk: Walk, where: str, seq: int, body: dict, report: Report) -> writer.Draft | None:
    """`seki verify` of a takeback's record: `recheck`, its inputs and label; once the
    secrets are revealed, the draft of the record: the state restored is the one before
    the record undone."""
    # not None: a kind's replay is of a record after the first (records.RecordKind)
    undone = cast(chain.Record, walk.previous)
    try:
        requester, texts = recheck(walk.gd.root, walk.definition, where, body, undone)
    except Refusal as exc:
        raise wrapped(None, exc) from None
    walk.check_inputs(where, body, texts)
    label = record_label(seq - 1, requester)
    walk.check_label(where, body, label)
    if walk.state is None:
        return None
    step = steps.takeback_step(walk.states[seq - 2], seq - 1, requester)
    fields = {"kind": KIND, "undo": seq - 1}
    return writer.Draft(step, writer.inputs(texts), label, body["time"], fields)
