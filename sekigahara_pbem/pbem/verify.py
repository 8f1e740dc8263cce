"""Reveal and verify: after the game the referee publishes every seed and the state key;
then anyone can replay the game from genesis and check every signature, commitment, draw,
state hash, sealed state and packet, and learn the first discrepancy precisely.

Without a reveal, verify checks what needs no secret: every signature, the hash chain,
the inputs' hashes and the turn files' signers.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..component_files import components_hash, load_components
from ..crypto import signing
from ..crypto.keys import Identity
from ..crypto.seeds import game_seed, verify_seed
from ..rules.engine import pending
from ..rules.setup import setup
from ..rules.state import canonical
from ..rules.views import VIEW_FORMAT, redact_event
from ..rules.vocab import SIDES
from . import chain, commitments, joins, referee, turns
from . import documents as docs
from .game import REFEREE, Definition, load, parse_secrets, secrets_text
from .store import GameDir, StoreError, git_commit, locked, write_atomic

REVEAL_FORMAT = "seki-reveal/1"


class Discrepancy(ValueError):
    """The archive does not verify; the message names the file and what differs."""


@dataclass
class Report:
    records: int = 0
    turn_files: int = 0
    packets: int = 0
    revealed: bool = False
    result: dict | None = None
    notes: list[str] = field(default_factory=list)


def reveal(root: Path, ref: Identity, now: str, force: bool = False) -> Path:
    """Publish the three seeds and the state key, signed (after the game, or with force)."""
    with locked(root):
        game = referee.open_game(root, ref)
        at = referee.current(game)
        if at is None:
            raise StoreError("the game has not started; there is nothing to reveal")
        record, state = at
        if state["result"] is None and not force:
            raise StoreError("the game is not over; reveal only by agreement (--force)")
        seeds = {REFEREE: game.secrets.seed.hex()}
        for side in SIDES:
            path = game.gd.join(side)
            join = joins.parse_join(game.definition, path.read_text(encoding="utf-8"), str(path))
            seeds[side] = joins.open_seed(game.definition, join, ref).hex()
        body = {
            "format": REVEAL_FORMAT,
            "game": game.definition.game_id,
            "seq": record.seq,
            "time": now,
            "seeds": seeds,
            "secrets": secrets_text(game.secrets),
        }
        write_atomic(game.gd.reveal, signing.sign(docs.dump(body), ref))
        git_commit(root, f"reveal after record {record.seq}")
        return game.gd.reveal


def verify(root: Path) -> Report:
    """Check the whole archive; raise Discrepancy at the first thing that is wrong."""
    gd = GameDir(root)
    report = Report()
    try:
        definition = load(gd)
    except (ValueError, OSError) as exc:
        raise Discrepancy(f"game.txt: {exc}") from None
    if components_hash() != definition.components:
        raise Discrepancy("game.txt: made with another component set than this tool's")
    player_joins = {s: _join(gd, definition, s) for s in SIDES}
    revealed = _revealed(gd, definition, player_joins)
    report.revealed = revealed is not None
    if not report.revealed:
        report.notes.append("not revealed yet: states, draws and sealed parts not checked")
    comp = load_components()
    state = None
    if revealed is not None:
        seeds, secrets = revealed
        seed = game_seed(
            seeds[REFEREE], seeds["ishida"], seeds["tokugawa"], game_id=definition.game_id
        )
        state, events = setup(comp, seed, definition.options)
    prev, asked, previous_root, before_state = definition.hash, {}, None, None
    last = gd.last_seq()
    for seq in range(1, last + 1):
        where = f"records/{seq:06d}.txt"
        try:
            record = chain.read_record(gd, definition, seq)
        except (ValueError, OSError) as exc:
            raise Discrepancy(f"{where}: {exc}") from None
        body = record.body
        if body.get("prev") != prev:
            raise Discrepancy(f"{where}: prev does not name the record before it")
        if seq == 1:
            _check_inputs(where, body, [(f"joins/{s}.txt", player_joins[s].text) for s in SIDES])
            before: list = []
        else:
            turn, turn_text = _turn(gd, definition, where, body, seq)
            _check_inputs(where, body, [(body["inputs"][0]["file"], turn_text)])
            if not asked.get(turn.side, seq) <= turn.answers < seq:
                raise Discrepancy(f"{where}: the turn file's answers ({turn.answers}) is stale")
            report.turn_files += 1
            if state is not None:
                before = pending(state)
                state, events = referee.apply_turn(comp, state, turn, where)
        _check_openings(where, body, previous_root)
        if state is not None:
            _check_state(gd, definition, secrets, comp, where, body, seq, state, events)
            committed = chain.commitment_fields(
                secrets.commit_key, seq, before_state, state, events
            )
            if {k: body.get(k) for k in committed} != committed:
                raise Discrepancy(f"{where}: commitments or openings do not match the replay")
            before_state = state
            asked = chain.asked_since(
                before, pending(state), asked, None if seq == 1 else turn.side, seq
            )
            if body.get("asked") != asked:
                raise Discrepancy(f"{where}: asked does not match the replay")
        else:
            asked = body.get("asked", {})
        report.packets += _check_packets(gd, definition, where, seq, record)
        prev = record.hash
        previous_root = (body.get("commitments") or {}).get("root")
        report.records = seq
    if state is not None:
        report.result = state["result"]
    return report


def _join(gd: GameDir, definition: Definition, side: str) -> joins.Join:
    path = gd.join(side)
    try:
        return joins.parse_join(definition, path.read_text(encoding="utf-8"), f"joins/{side}.txt")
    except (ValueError, OSError) as exc:
        raise Discrepancy(f"joins/{side}.txt: {exc}") from None


def _revealed(gd: GameDir, definition: Definition, player_joins: dict):
    if not gd.reveal.is_file():
        return None
    try:
        verified = signing.verify(gd.reveal.read_text(encoding="utf-8"), [definition.referee])
        body = docs.load(verified.body, "reveal.txt", REVEAL_FORMAT)
        seeds = {
            k: bytes.fromhex(v) for k, v in docs.field(body, "seeds", dict, "reveal.txt").items()
        }
        secrets = parse_secrets(docs.field(body, "secrets", str, "reveal.txt"), "reveal.txt")
    except (ValueError, OSError, AttributeError) as exc:
        raise Discrepancy(f"reveal.txt: {exc}") from None
    commitments = {REFEREE: definition.referee_seed}
    commitments.update({s: player_joins[s].commitment for s in SIDES})
    for role, commitment in commitments.items():
        if not verify_seed(commitment, seeds.get(role, b""), role):
            raise Discrepancy(f"reveal.txt: the {role} seed does not match its commitment")
    public = secrets.state_key.public_key().public_bytes_raw()
    if public != definition.state_key.public_bytes_raw():
        raise Discrepancy("reveal.txt: the state key is not the one in game.txt")
    return seeds, secrets


def _turn(gd: GameDir, definition: Definition, where: str, body: dict, seq: int):
    inputs = body.get("inputs") or []
    if len(inputs) != 1 or not isinstance(inputs[0], dict):
        raise Discrepancy(f"{where}: expected one input")
    name = str(inputs[0].get("file", ""))
    path = gd.root / name
    if path.parent.name != "turns" or not path.is_file():
        raise Discrepancy(f"{where}: input {name} is missing")
    try:
        text = path.read_text(encoding="utf-8")
        turn = turns.parse(definition, text, name)
    except ValueError as exc:
        raise Discrepancy(f"{name}: {exc}") from None
    return turn, text


def _check_openings(where: str, body: dict, previous_root: str | None) -> None:
    """Every item a record opens was committed under the previous record's root; this
    needs no secret, so it holds before the reveal too."""
    for i, opening in enumerate(body.get("openings") or []):
        if previous_root is None or not commitments.check_opening(opening, previous_root):
            raise Discrepancy(f"{where}: openings[{i}] was not committed in the record before")


def _check_inputs(where: str, body: dict, expected: list[tuple[str, str]]) -> None:
    want = [{"file": name, "sha256": docs.sha256(text)} for name, text in expected]
    if body.get("inputs") != want:
        raise Discrepancy(f"{where}: inputs do not match the files they name")


def _check_state(gd, definition, secrets, comp, where, body, seq, state, events) -> None:
    if body.get("view_format") != VIEW_FORMAT:
        raise Discrepancy(
            f"{where}: written with view format {body.get('view_format')!r}; this tool "
            f"replays {VIEW_FORMAT!r} (use the tool version game.txt names)"
        )
    if body.get("public_state") != chain.public_hash(state, comp):
        raise Discrepancy(f"{where}: public_state does not match the replay")
    if body.get("pending") != pending(state):
        raise Discrepancy(f"{where}: pending does not match the replay")
    if body.get("events") != [redact_event(e, None) for e in events]:
        raise Discrepancy(f"{where}: events do not match the replay")
    try:
        sealed_text = gd.sealed(seq).read_text(encoding="utf-8")
    except (ValueError, OSError) as exc:
        raise Discrepancy(f"sealed/{seq:06d}.txt: {exc}") from None
    if body.get("sealed_state") != docs.sha256(sealed_text):
        raise Discrepancy(f"sealed/{seq:06d}.txt: does not match its record")
    try:
        sealed = chain.open_state(definition, secrets, seq, sealed_text)
    except (ValueError, zlib.error) as exc:
        raise Discrepancy(f"sealed/{seq:06d}.txt: {exc}") from None
    if canonical(sealed) != canonical(state):
        raise Discrepancy(f"sealed/{seq:06d}.txt: the sealed state differs from the replay")


def _check_packets(gd: GameDir, definition: Definition, where: str, seq: int, record) -> int:
    for side in SIDES:
        path = gd.packet(seq, side)
        name = f"packets/{path.name}"
        try:
            verified = signing.verify(path.read_text(encoding="utf-8"), [definition.referee])
            body = docs.load(verified.body, name, "seki-packet/1")
        except (ValueError, OSError) as exc:
            raise Discrepancy(f"{name}: {exc}") from None
        expect = {"game": definition.game_id, "seq": seq, "to": side, "record": record.hash}
        if any(body.get(k) != v for k, v in expect.items()):
            raise Discrepancy(f"{name}: does not belong to {where}")
        for key in ("pending", "commitments", "openings"):
            if body.get(key) != record.body.get(key):
                raise Discrepancy(f"{name}: {key} differs from {where}")
    return len(SIDES)
