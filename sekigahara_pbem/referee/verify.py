"""Reveal and verify: after the game the referee publishes every seed and the state key;
then anyone can replay the game from genesis and check every signature, commitment, draw,
state hash, sealed state and packet, and learn the first discrepancy precisely.

Without a reveal, verify checks what needs no secret: every signature, the hash chain,
the inputs' hashes and the turn files' signers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..crypto import signing
from ..crypto.keys import Identity
from ..crypto.seeds import game_seed, verify_seed
from ..i18n import gettext as _
from ..protocol import chain, commitments, joins
from ..protocol import clock as clocks
from ..protocol import documents as docs
from ..protocol.component_files import game_components
from ..protocol.game import (
    ALLOWED_SIGNERS,
    REFEREE,
    Definition,
    allowed_signers,
    load,
    parse_secrets,
    secrets_text,
)
from ..protocol.store import GameDir, StoreError, locked, write_atomic
from ..refusal import N_, Refusal, UserError, quoted
from ..rules.cycle.setup import setup
from ..rules.state import canonical
from ..rules.state_types import State
from ..rules.views import VIEW_FORMAT
from ..rules.vocab import SIDES
from . import adjudication as referee
from . import records, steps
from .discrepancy import Discrepancy
from .discrepancy import wrapped as _wrapped
from .read_ahead import ReadAhead
from .records import opening, writer

REVEAL_FORMAT = "seki-reveal/1"


@dataclass
class Report:
    records: int = 0
    turn_files: int = 0
    packets: int = 0
    revealed: bool = False
    result: dict | None = None
    notes: list[str] = field(default_factory=list)
    states: dict[int, State] = field(default_factory=dict)  # by seq, once revealed (replay)
    # a record of several actions, by seq: the state after each, and its events (replay)
    stages: dict[int, tuple[tuple[State, list], ...]] = field(default_factory=dict)
    bodies: dict[int, dict] = field(default_factory=dict)  # each verified record's, by seq


def reveal(root: Path, ref: Identity, now: str, force: bool = False) -> Path:
    """Publish the three seeds and the state key, signed (after the game, or with force)."""
    with locked(root):
        game = referee.open_game(root, ref)
        at = referee.current(game)
        if at is None:
            raise StoreError(N_("the game has not started; there is nothing to reveal"))
        record, state = at
        if state["result"] is None and not force:
            raise StoreError(N_("the game is not over; reveal only by agreement (--force)"))
        players = referee.player_seeds(game, referee.joined(game))
        seeds = {REFEREE: game.secrets.seed.hex(), **{s: players[s].hex() for s in SIDES}}
        body = {
            "format": REVEAL_FORMAT,
            "game": game.definition.game_id,
            "seq": record.seq,
            "record": record.hash,  # pins the chain: no record can be cut off or added
            "time": now,
            "seeds": seeds,
            "secrets": secrets_text(game.secrets),
        }
        write_atomic(game.gd.reveal, signing.sign(docs.dump(body), ref))
        game.commit(f"reveal after record {record.seq}")
        return game.gd.reveal


def verify(root: Path) -> Report:
    """Check the whole archive; raise Discrepancy at the first thing that is wrong."""
    gd = GameDir(root)
    gd.require()  # no game directory at all: a StoreError (exit 1), as `seki status` says
    report = Report()
    try:
        definition = load(gd)
    except UserError as exc:
        raise _wrapped("game.txt", exc) from None
    try:
        comp = game_components(root, definition.components)
    except Refusal as exc:
        raise _wrapped(None, exc) from None
    signers = root / ALLOWED_SIGNERS  # for ssh-keygen; archives made before have none
    known = (allowed_signers(definition), allowed_signers(definition, git=False))
    if signers.is_file() and docs.read_capped(signers) not in known:
        raise Discrepancy(N_("not the keys of game.txt"), at=ALLOWED_SIGNERS)
    player_joins = {s: _join(gd, definition, s) for s in SIDES}
    start_files = _start_files(gd, definition, player_joins, report)
    revealed = _revealed(gd, definition, player_joins)
    report.revealed = revealed is not None
    if not report.revealed:
        report.notes.append(_("not revealed yet: states, draws and sealed parts not checked"))
    state: State | None = None
    events: list = []
    if revealed is not None:
        seeds, secrets, _pin = revealed
        seed = game_seed(
            seeds[REFEREE], seeds["ishida"], seeds["tokugawa"], game_id=definition.game_id
        )
        state, events = setup(comp, seed, definition.options)
    secrets = revealed[1] if revealed else None
    last = gd.last_seq()
    key = None if secrets is None else secrets.state_key.private_bytes_raw()
    ahead = ReadAhead(gd, definition, last, key)
    try:
        replay = _Replay(gd, definition, comp, secrets, state, events, ahead)
        for seq in range(1, last + 1):
            replay.record(seq, start_files, report)
    finally:
        ahead.close()
    if last:
        _check_last(gd, definition, last, revealed[2] if revealed else None)
    report.states, report.stages = replay.states, replay.stages
    if replay.state is not None:
        report.result = replay.state["result"]
        if report.result is None:
            report.notes.append(_("revealed before the end of the game (by agreement): no result"))
    return report


def _check_last(gd: GameDir, definition: Definition, last: int, pin) -> None:
    """The archive ends where the reveal says, and public/state.yaml is the last record's
    public view: a chain cut short, or a public state changed after the fact, is found."""
    record = chain.read_record(gd, definition, last)
    if pin is not None:
        seq, record_hash = pin
        if seq != last:
            raise Discrepancy(
                N_(
                    "revealed after record {seq}, but the archive's records end at {last}: "
                    "records are missing or were added after the reveal"
                ),
                at="reveal.txt",
                seq=seq,
                last=last,
            )
        if record_hash is not None and record_hash != record.hash:
            raise Discrepancy(
                N_("record {seq} is not the record the reveal pinned"),
                at="reveal.txt",
                seq=last,
            )
    try:
        text = docs.read_capped(gd.public_state)
        public = docs.load_yaml(text, "public/state.yaml")
    except Refusal as exc:
        raise _wrapped("public/state.yaml", exc) from None
    if docs.sha256(canonical(public)) != record.body.get("public_state"):
        raise Discrepancy(
            N_("not the public view of record {seq}"), at="public/state.yaml", seq=last
        )
    if docs.dump(json.loads(canonical(public))) != text:  # e.g. a key given twice
        raise Discrepancy(N_("not in the form the referee writes"), at="public/state.yaml")


class _Replay:
    """The walk along the chain: each record checked against the one before it and, once
    the secrets are revealed, against the replayed game."""

    def __init__(
        self, gd, definition: Definition, comp, secrets, state: State | None, events, ahead
    ):
        self.gd, self.definition, self.comp, self.secrets = gd, definition, comp, secrets
        self.ahead: ReadAhead = ahead
        self.state, self.events = state, events
        self.states: dict[int, State] = {}
        self.stages: dict[int, tuple[tuple[State, list], ...]] = {}
        self.extended: str | None = None  # who asked for an extension in this record
        self.chain = chain.Walk(1, definition.hash, None, Refusal)
        # the record before's `asked` as it says: checked (`_check_whole`) once revealed only
        self.asked: Any = {}
        # the record before's `clock`: `_check_clock` found it the deadlines' (or none)
        self.clock: dict = {}
        self.answered: dict[str, int] = {}  # side -> the packet its last file answered
        self.bound_since: int | None = None  # the first record whose turn file is bound
        self.previous_root = None
        self.previous: chain.Record | None = None

    def record(self, seq: int, start_files: list, report: Report) -> None:
        where = f"records/{seq:06d}.txt"
        try:
            record = self.ahead.record(seq)
        except UserError as exc:
            raise _wrapped(where, exc) from None
        body = record.body
        unchecked = [k for k in body if k not in writer.RECORD_FIELDS]
        if unchecked:
            raise Discrepancy(
                N_("holds fields no record holds: {fields}"), at=where, fields=quoted(unchecked)
            )
        try:
            link = chain.Link(
                seq, str(body.get("prev")), clocks.parse_time(body.get("time"), f"{where}: time")
            )
            self.chain.step(link, record.hash, where)
        except Refusal as exc:
            raise _wrapped(None, exc) from None
        before_state = None if seq == 1 else self.state
        self.extended = None
        if seq == 1:
            _check_inputs(where, body, start_files)
            draft = None
            if self.state is not None:
                first = steps.Step(self.state, self.events, None)
                inputs = writer.inputs(start_files)
                draft = writer.Draft(first, inputs, opening.SETUP_LABEL, body["time"])
        else:
            draft = self._step(where, seq, body, report)
        _check_openings(where, body, self.previous_root)
        step = None if draft is None else draft.step
        self._check_clock(where, seq, body, step)
        if draft is not None:
            self.state, self.events = draft.step.state, draft.step.events
            sealed_hash = _check_state(
                self.gd, self.definition, self.secrets, where, body, seq, self.state
            )
            self._check_whole(where, body, before_state, draft, sealed_hash)
            self.states[seq] = self.state
            if draft.step.stages:
                self.stages[seq] = draft.step.stages
        report.packets += self.ahead.check(where, seq, record)
        self.asked = body.get("asked", {})
        self.clock, self.previous = body.get("clock", {}), record
        self.previous_root = (body.get("commitments") or {}).get("root")
        report.records, report.bodies[seq] = seq, body

    def _check_whole(
        self, where: str, body: dict, before: State | None, draft: writer.Draft, sealed_hash: str
    ) -> None:
        """The record is the one the referee's writer makes of the replayed draft, field
        for field (writer.record_body): nothing in it goes unchecked. `sealed_hash`: the
        record's `sealed_state`, which `_check_state` found to be its sealed file's."""
        want = writer.record_body(
            self.definition, self.comp, self.secrets.commit_key, self.previous, before, draft,
            sealed_hash,
        )  # fmt: skip
        unlike = sorted(k for k in body.keys() | want.keys() if body.get(k) != want.get(k))
        if len(unlike) == 1:
            raise _unlike_replay(where, unlike[0])
        if unlike:
            raise Discrepancy(
                N_("{fields} do not match the replay"), at=where, fields=", ".join(unlike)
            )

    def _step(self, where: str, seq: int, body: dict, report: Report) -> writer.Draft | None:
        """A record after the first, replayed by its kind (records.KINDS)."""
        kind = body.get("kind")
        replay = records.replaying(kind)
        if replay is None:
            raise Discrepancy(N_("unknown kind {kind}"), at=where, kind=quoted(kind))
        return replay(self, where, seq, body, report)

    def turn_file(self, where: str, seq: int, body: dict) -> tuple:
        return self.ahead.turn_file(where, seq, body)

    def check_inputs(self, where: str, body: dict, expected: list[tuple[str, str]]) -> None:
        _check_inputs(where, body, expected)

    def check_label(self, where: str, body: dict, label: str) -> None:
        _check_label(where, body, label)

    def _check_clock(self, where: str, seq: int, body: dict, step: steps.Step | None) -> None:
        settings = self.definition.deadlines
        if settings is None:
            if "clock" in body:
                raise Discrepancy(N_("a clock in a game without deadlines"), at=where)
            return
        extended = step.extended if step is not None else self.extended
        want = clocks.next_clock(
            settings, self.clock, body.get("asked", {}), seq, body["time"], extended
        )
        if body.get("clock") != want:
            raise Discrepancy(N_("clock does not match the deadlines in game.txt"), at=where)


def _join(gd: GameDir, definition: Definition, side: str) -> joins.Join:
    path = gd.join(side)
    try:
        return joins.parse_join(definition, docs.read_capped(path), f"joins/{side}.txt")
    except Refusal as exc:
        raise _wrapped(f"joins/{side}.txt", exc) from None


def _start_files(gd: GameDir, definition: Definition, player_joins: dict, report: Report):
    """Record 1's inputs as (name, text), checked as the referee checks them
    (records/opening.py); none yet while the seeds are on their way."""
    if any(player_joins[s].first_format for s in SIDES):
        report.notes.append(
            _(
                "joined with {format}: the referee held the first seed before the second "
                "player committed, so the fairness of the setup draw rests on the referee"
            ).format(format=joins.JOIN_FORMAT_V1)
        )
    elif gd.last_seq() == 0 and not all(gd.seed(s).is_file() for s in SIDES):
        return []
    try:
        return opening.start_documents(gd, definition, player_joins)
    except Refusal as exc:
        raise _wrapped(None, exc) from None


def _revealed(gd: GameDir, definition: Definition, player_joins: dict):
    if not gd.reveal.is_file():
        return None
    try:
        verified = signing.verify(docs.read_capped(gd.reveal), [definition.referee])
        body = docs.load(verified.body, "reveal.txt", REVEAL_FORMAT)
        seeds = docs.field(body, "seeds", dict, "reveal.txt")
        seeds = {k: docs.hex_field(seeds, k, "reveal.txt: seeds") for k in seeds}
        secrets = parse_secrets(docs.field(body, "secrets", str, "reveal.txt"), "reveal.txt")
        # the record it was made after: seq, and hash (older reveals name the seq only)
        pin = (docs.field(body, "seq", int, "reveal.txt"), body.get("record"))
    except Refusal as exc:
        raise _wrapped("reveal.txt", exc) from None
    commitments = {REFEREE: definition.referee_seed}
    commitments.update({s: player_joins[s].commitment for s in SIDES})
    for role, commitment in commitments.items():
        if not verify_seed(commitment, seeds.get(role, b""), role):
            raise Discrepancy(
                N_("the {role} seed does not match its commitment"),
                at="reveal.txt",
                role=role,
            )
    public = secrets.state_key.public_key().public_bytes_raw()
    if public != definition.state_key.public_bytes_raw():
        raise Discrepancy(N_("the state key is not the one in game.txt"), at="reveal.txt")
    return seeds, secrets, pin


def _check_openings(where: str, body: dict, previous_root: str | None) -> None:
    """Every item a record opens was committed under the previous record's root; this
    needs no secret, so it holds before the reveal too."""
    for i, item in enumerate(body.get("openings") or []):
        if previous_root is None or not commitments.check_opening(item, previous_root):
            raise Discrepancy(
                N_("openings[{index}] was not committed in the record before"),
                at=where,
                index=i,
            )


def _check_label(where: str, body: dict, label: str) -> None:
    """The record's label says what the replay did: no lie stands in the public archive."""
    if body.get("label") != label:
        raise Discrepancy(
            N_("label {label} does not match the replay ({replayed})"),
            at=where,
            label=quoted(body.get("label")),
            replayed=label,
        )


def _check_inputs(where: str, body: dict, expected: list[tuple[str, str]]) -> None:
    if body.get("inputs") != writer.inputs(expected):
        raise Discrepancy(N_("inputs do not match the files they name"), at=where)


def _check_state(gd, definition, secrets, where, body, seq, state) -> str:
    """The record's view format is this tool's, and its sealed state is the file beside it
    and opens to the replayed state (the rest: `_Replay._check_whole`); the file's hash,
    which is the record's `sealed_state`."""
    if body.get("view_format") != VIEW_FORMAT:
        raise Discrepancy(
            N_(
                "written with view format {found}; this tool replays {expected} "
                "(use the tool version game.txt names)"
            ),
            at=where,
            found=quoted(body.get("view_format")),
            expected=quoted(VIEW_FORMAT),
        )
    try:
        sealed_text = docs.read_capped(gd.sealed(seq))
    except Refusal as exc:
        raise _wrapped(f"sealed/{seq:06d}.txt", exc) from None
    sealed_hash = docs.sha256(sealed_text)
    if body.get("sealed_state") != sealed_hash:
        raise Discrepancy(N_("does not match its record"), at=f"sealed/{seq:06d}.txt")
    try:
        sealed = chain.open_state_bytes(definition, secrets, seq, sealed_text)
    except Refusal as exc:
        raise _wrapped(f"sealed/{seq:06d}.txt", exc) from None
    if sealed != canonical(state).encode():  # the referee seals the canonical form
        raise Discrepancy(
            N_("the sealed state differs from the replay"), at=f"sealed/{seq:06d}.txt"
        )
    return sealed_hash


def _unlike_replay(where: str, field: str) -> Discrepancy:
    return Discrepancy(N_("{field} does not match the replay"), at=where, field=field)
