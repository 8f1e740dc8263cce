"""Writing one record: the record, the sealed state, the public view and a packet per
player, all built in memory first, so that a refusal or a bug while building them touches
no file; then written with the record renamed into place last (docs/protocol.md), and one
git commit. A run killed in between leaves the last record current; `recover` puts the
game back in shape before the next run."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ...protocol import chain, packets
from ...protocol import clock as clocks
from ...protocol import documents as docs
from ...protocol.game import Definition
from ...protocol.store import as_committed, write_atomic
from ...refusal import Refusal
from ...rules.components import Components
from ...rules.engine import pending
from ...rules.state import canonical
from ...rules.state_types import State
from ...rules.views import VIEW_FORMAT, redact_event, view
from ..steps import Step
from .context import Game, state_at


@dataclass(frozen=True)
class Draft:
    """What a record is made of besides the record before it: the step, the inputs it
    names, its label and time, optional fields (kind, undo) and the input files kept
    beside it (a turn file under turns/)."""

    step: Step
    inputs: list[dict]
    label: str
    now: str
    fields: dict = field(default_factory=dict)
    kept: dict[Path, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Files:
    """Everything record `seq` puts on disk, as text."""

    record: chain.Record
    sealed: str
    public: str
    packets: dict[str, str]


def inputs(files: list[tuple[str, str]]) -> list[dict]:
    """A record's `inputs` naming these (name, text) files by hash."""
    return [{"file": name, "sha256": docs.sha256(text)} for name, text in files]


def write(
    game: Game, previous: chain.Record | None, before: State | None, draft: Draft
) -> chain.Record:
    """Record the draft after `previous` (None for the setup) and the state `before` it;
    one git commit."""
    files = build(game, previous, before, draft)
    seq = files.record.seq
    for path, text in draft.kept.items():
        write_atomic(path, text)
    write_atomic(game.gd.sealed(seq), files.sealed)
    for side, text in files.packets.items():
        write_atomic(game.gd.packet(seq, side), text)
    write_atomic(game.gd.record(seq), files.record.text)
    write_atomic(game.gd.public_state, files.public)
    game.commit(f"record {seq}: {draft.label}")
    return files.record


# Every field a record's body may hold: those `build` writes, the commitments, and a kind's
# own (clock with deadlines; kind for a deadline or a takeback, undo for a takeback).
# `seki verify` refuses any other: a signed record says nothing the replay does not check.
RECORD_FIELDS = frozenset(
    {
        "format", "game", "seq", "prev", "time", "label", "inputs", "view_format",
        "public_state", "sealed_state", "pending", "asked", "events", "commitments",
        "openings", "clock", "kind", "undo",
    }
)  # fmt: skip


def build(game: Game, previous: chain.Record | None, before: State | None, draft: Draft) -> Files:
    """The files of the record, in memory: its body (`record_body`), the sealed state and
    the packets."""
    seq = 1 if previous is None else previous.seq + 1
    state = draft.step.state
    # `seal_state` takes the state as the plain JSON mapping it serialises, which a State is
    sealed = chain.seal_state(game.definition, seq, state)
    body = record_body(
        game.definition, game.comp, game.secrets.commit_key, previous, before, draft,
        docs.sha256(sealed),
    )  # fmt: skip
    record = chain.sign_record(game.referee, seq, body)
    following = packets.Following(
        seq, record.hash, {k: body[k] for k in ("commitments", "openings")}
    )
    sent = {
        side: packets.build(
            game.definition, game.referee, game.comp, following, state, draft.step.events, side
        )
        for side in game.definition.players
    }
    return Files(record, sealed, public_text(state, game.comp), sent)


def record_body(
    definition: Definition,
    comp: Components,
    commit_key: bytes,
    previous: chain.Record | None,
    before: State | None,
    draft: Draft,
    sealed_hash: str,
) -> dict:
    """A record's whole body, from the record before it, the state `before` and the
    draft: who is asked since when, their deadlines, the commitments, the public
    hashes. Nothing but its arguments goes in, so `seki verify` builds it again from the
    replay and compares it whole: a field the referee writes is a field verify checks."""
    fields = dict(draft.fields)
    step = draft.step
    seq = 1 if previous is None else previous.seq + 1
    prior = {} if previous is None else previous.body
    was = {} if fields.get("kind") == "takeback" else prior.get("asked", {})
    was_pending = [] if before is None else pending(before)
    asked = chain.asked_since(was_pending, pending(step.state), was, step.actor, seq)
    if definition.deadlines is not None:
        fields["clock"] = clocks.next_clock(
            definition.deadlines, prior.get("clock", {}), asked, seq, draft.now, step.extended
        )
    state, events = step.state, step.events
    return {
        "format": chain.RECORD_FORMAT,
        "game": definition.game_id,
        "seq": seq,
        "prev": definition.hash if previous is None else previous.hash,
        "time": draft.now,
        "label": draft.label,
        "inputs": draft.inputs,
        "view_format": VIEW_FORMAT,
        "public_state": chain.public_hash(state, comp),
        "sealed_state": sealed_hash,
        "pending": pending(state),
        "asked": asked,
        "events": [redact_event(e, None) for e in events],
        **chain.commitment_fields(commit_key, seq, before, state, events),
        **fields,
    }


def public_text(state: State, comp: Components) -> str:
    return docs.dump(json.loads(canonical(view(state, comp, None))))


def recover(game: Game) -> None:
    """After an interrupted run: the files of a record never written are removed, the
    public view is the last record's again, and whatever was left uncommitted is
    committed."""
    game.gd.remove_leftovers()
    if as_committed(game.gd.root):  # the common case: the last run ended as it should
        return
    seq = game.gd.last_seq()
    if seq:
        record = chain.read_record(game.gd, game.definition, seq)
        try:
            shown = docs.load_yaml(docs.read_capped(game.gd.public_state), "public/state.yaml")
        except Refusal:  # missing, or cut short by the interruption
            shown = None
        if docs.sha256(canonical(shown)) != record.body["public_state"]:
            state = state_at(game, seq)
            write_atomic(game.gd.public_state, public_text(state, game.comp))
    game.commit("recovered from an interrupted step")
