"""The referee's adjudication: accept joins and turn files, apply them with the engine, and
write one record, sealed state and pair of packets per accepted input, each step one git
commit. Refused inputs are kept under rejected/ with the reason, sealed to the state key
(a refusal may quote what only its sender may know); the game is unchanged.

Adjudication loads the last sealed state, never replays from genesis, so its cost does not
grow with the length of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..component_files import components_hash, load_components
from ..crypto import signing
from ..crypto.keys import Identity
from ..crypto.seeds import game_seed
from ..rules.components import Components
from ..rules.cycle.setup import setup
from ..rules.engine import pending
from ..rules.vocab import SIDES, other
from . import chain, joins, steps, takebacks, turns
from . import clock as clocks
from . import documents as docs
from .game import Definition, Secrets, load, open_secrets, tool_version
from .steps import Refused
from .store import GameDir, StoreError, git_commit, locked, write_atomic

__all__ = ["Refused", "adjudicate", "current", "enforce_deadlines", "open_game", "state_at"]


@dataclass(frozen=True)
class Outcome:
    name: str
    accepted: bool
    message: str


@dataclass
class Game:
    """Everything an adjudication needs, loaded once."""

    gd: GameDir
    definition: Definition
    secrets: Secrets
    referee: Identity
    comp: Components


def open_game(root: Path, referee: Identity) -> Game:
    gd = GameDir(root)
    definition = load(gd)
    secrets = open_secrets(gd, definition, referee)
    comp = load_components()
    if components_hash() != definition.components:
        raise StoreError(
            "this game was created with another component set "
            f"({definition.components[:16]}…); this tool has {components_hash()[:16]}…"
        )
    return Game(gd, definition, secrets, referee, comp)


def current(game: Game) -> tuple[chain.Record, dict] | None:
    """The last record and the state after it (None before the game has started)."""
    seq = game.gd.last_seq()
    if seq == 0:
        return None
    record = chain.read_record(game.gd, game.definition, seq)
    text = docs.read_capped(game.gd.sealed(seq))
    if docs.sha256(text) != record.body["sealed_state"]:
        raise StoreError(f"sealed/{seq:06d}.txt does not match record {seq}")
    return record, chain.open_state(game.definition, game.secrets, seq, text)


def adjudicate(root: Path, referee: Identity, inputs: list[tuple[str, bytes]], now: str) -> list:
    """Apply each input in turn; one git commit per accepted input."""
    with locked(root):
        game = open_game(root, referee)
        game.gd.remove_leftovers()
        git_commit(root, "recovered from an interrupted step")
        outcomes = []
        for name, data in inputs:
            try:
                message = _one(game, name, data, now)
            except ValueError as exc:  # bad documents, signatures, seals, orders: refused
                kept = game.gd.reject(
                    name, chain.seal_rejected(game.definition, name, data, str(exc))
                )
                outcomes.append(Outcome(name, False, f"{exc} (kept as {kept.name})"))
                git_commit(root, f"rejected {name}")
                continue
            outcomes.append(Outcome(name, True, message))
        return outcomes


def _one(game: Game, name: str, data: bytes, now: str) -> str:
    if len(data) > docs.MAX_BYTES:
        raise docs.DocumentError(name, f"larger than {docs.MAX_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise docs.DocumentError(name, "not UTF-8 text") from None
    body, _ = signing.split(text)
    lines = body.splitlines()
    if f"format: {joins.JOIN_FORMAT}" in lines or f"format: {joins.JOIN_FORMAT_V1}" in lines:
        return _join(game, name, text)
    if f"format: {joins.SEED_FORMAT}" in lines:
        return _seed(game, name, text, now)
    if f"format: {takebacks.REQUEST_FORMAT}" in lines:
        return _takeback_request(game, name, text, now)
    if f"format: {takebacks.CONSENT_FORMAT}" in lines:
        return _consent(game, name, text, now)
    return _turn(game, name, text, now)


def _join(game: Game, name: str, text: str) -> str:
    """A player's commitment to its seed (pbem/joins.py): one per side, before the start."""
    join = joins.parse_join(game.definition, text, name)
    if join.first_format:
        raise Refused(
            f"{name}: a {joins.JOIN_FORMAT_V1} join sends its seed before the other side has "
            f"committed to its own; join again with this version of seki ({tool_version()})"
        )
    if game.gd.last_seq() > 0:
        raise Refused(f"{name}: the game has already started")
    if game.gd.join(join.side).is_file():  # one join per side: no choosing between seeds
        raise Refused(
            f"{name}: {join.side} has already joined this game; only its first join counts"
        )
    write_atomic(game.gd.join(join.side), text)
    git_commit(game.gd.root, f"{join.side} joined")
    if all(game.gd.join(s).is_file() for s in SIDES):
        return (
            f"{join.side} joined; both sides are in: send each side the other's join "
            "(joins/ishida.txt to tokugawa, joins/tokugawa.txt to ishida) for its seed"
        )
    return f"{join.side} joined; waiting for the other side"


def joined(game: Game) -> dict[str, joins.Join]:
    """The joins on file, by side."""
    found = {}
    for side in SIDES:
        path = game.gd.join(side)
        if path.is_file():
            found[side] = joins.parse_join(game.definition, docs.read_capped(path), str(path))
    return found


def _seed(game: Game, name: str, text: str, now: str) -> str:
    """A player's seed, sent after it held the other's join; the game starts with the
    second one."""
    seed_file = joins.parse_seed(game.definition, text, name)
    if game.gd.last_seq() > 0:
        raise Refused(f"{name}: the game has already started")
    on_file = joined(game)
    if seed_file.side not in on_file:
        raise Refused(f"{name}: {seed_file.side} has not joined yet; send the join first")
    joins.check_order(seed_file, on_file, name)
    if game.gd.seed(seed_file.side).is_file():
        raise Refused(f"{name}: {seed_file.side} has already sent its seed")
    joins.open_seed(game.definition, on_file[seed_file.side], game.referee, seed_file.sealed_seed)
    write_atomic(game.gd.seed(seed_file.side), text)
    git_commit(game.gd.root, f"{seed_file.side} sent its seed")
    if all(game.gd.seed(s).is_file() for s in SIDES):
        _start(game, on_file, now)
        return f"{seed_file.side} sent its seed; the game is set up (record 1)"
    return f"{seed_file.side} sent its seed; waiting for {other(seed_file.side)}'s"


def player_seeds(game: Game, on_file: dict[str, joins.Join]) -> dict[str, bytes]:
    """Each player's seed, opened and checked against its join (from the join itself in
    games joined with the first format)."""
    seeds = {}
    for side, join in on_file.items():
        sealed = join.sealed_seed
        if sealed is None:
            path = game.gd.seed(side)
            sealed = joins.parse_seed(game.definition, docs.read_capped(path), str(path))
            sealed = sealed.sealed_seed
        seeds[side] = joins.open_seed(game.definition, join, game.referee, sealed)
    return seeds


def start_inputs(gd: GameDir) -> list[dict]:
    """Record 1's inputs: the joins, then the seed files (none in first-format games)."""
    files = [gd.join(s) for s in SIDES] + [gd.seed(s) for s in SIDES if gd.seed(s).is_file()]
    return [
        {"file": f"joins/{p.name}", "sha256": docs.sha256(p.read_text(encoding="utf-8"))}
        for p in files
    ]


def _start(game: Game, on_file: dict[str, joins.Join], now: str) -> None:
    """Rule 5 setup from the three seeds; record 1 and the first packets."""
    seeds = player_seeds(game, on_file)
    seed = game_seed(
        game.secrets.seed, seeds["ishida"], seeds["tokugawa"], game_id=game.definition.game_id
    )
    state, events = setup(game.comp, seed, game.definition.options)
    asked = chain.asked_since([], pending(state), {}, None, 1)
    fields = {}
    if game.definition.deadlines is not None:
        fields["clock"] = clocks.next_clock(game.definition.deadlines, {}, asked, 1, now, None)
    chain.write_step(
        game.gd, game.definition, game.referee, game.secrets, game.comp, 1,
        game.definition.hash, None, state, events, start_inputs(game.gd), "setup (rule 5)",
        now, asked, fields,
    )  # fmt: skip
    git_commit(game.gd.root, "record 1: setup (rule 5)")


def _turn(game: Game, name: str, text: str, now: str) -> str:
    if turns.is_sealed(text):  # sealed by its player: opened here, kept as it came
        sealed, text = text, turns.unseal(game.definition, text, game.secrets.state_key, name)
    else:  # a turn file that came unsealed is sealed at rest by the referee
        sealed = turns.seal(game.definition, text, game.referee)
    turn = turns.parse(game.definition, text, name)
    record, state = _current(game, name)
    seq = record.seq
    asked = record.body.get("asked", {})
    free = steps.anytime(turn)
    if turn.side not in asked and not free:
        waiting = ", ".join(sorted(asked)) or "nobody (the game is over)"
        raise Refused(f"{name}: no decision is asked of {turn.side} now; waiting for {waiting}")
    problem = steps.stale(turn.side, turn.answers, free, asked, seq, _answered(game, turn.side))
    if problem is not None:
        raise Refused(f"{name}: {problem}")
    step = steps.turn_step(
        game.comp, state, turn, name, game.definition.deadlines, record.body.get("clock", {})
    )
    label = _turn_label(state, turn.side, step, free)
    new_seq = seq + 1
    path = game.gd.turn(new_seq, turn.side)
    write_atomic(path, sealed)
    inputs = [{"file": f"turns/{path.name}", "sha256": docs.sha256(sealed)}]
    _write(game, record, state, step, inputs, label, now)
    note = ""
    if turn.tool and turn.tool != tool_version():
        note = f"; note: sent with {turn.tool}, the referee runs {tool_version()}"
    return f"record {new_seq}: {label} ({len(turn.actions)} action(s)){note}"


def _answered(game: Game, side: str) -> int | None:
    """The packet the side's last accepted turn file answered (None before its first)."""
    files = sorted((game.gd.root / "turns").glob(f"*-{side}.txt"))
    if not files:
        return None
    return read_turn(game, files[-1]).answers


def read_turn(game: Game, path: Path) -> turns.Turn:
    """An accepted turn file from turns/: sealed (opened with the game's state key) or,
    in games from before sealing, clear."""
    text = docs.read_capped(path)
    if turns.is_sealed(text):
        text = turns.unseal(game.definition, text, game.secrets.state_key, str(path))
    return turns.parse(game.definition, text, str(path))


def _current(game: Game, name: str) -> tuple[chain.Record, dict]:
    now_at = current(game)
    if now_at is None:
        raise Refused(f"{name}: the game has not started (both players must join first)")
    return now_at


def _turn_label(state: dict, side: str, step: steps.Step, free: bool) -> str:
    if step.extended:
        return f"extension for {side}"
    if step.state["result"] is not None and step.state["result"].get("how") == "resignation":
        return f"{side} resigned"
    if free:  # battle plans only: not the pending decision's answer (issue 19)
        return f"week {state['week']} turn {state['turn']}: {side} battle plan"
    return _label(state, side)


def _label(state: dict, side: str) -> str:
    decision = next((d["decision"] for d in pending(state) if d["side"] == side), "?")
    return f"week {state['week']} turn {state['turn']}: {side} {decision}"


def _write(
    game: Game,
    record: chain.Record,
    state: dict,
    step: steps.Step,
    inputs: list,
    label: str,
    now: str,
    extra: dict | None = None,
) -> chain.Record:
    """Record the step as record seq+1, with who is asked since when and their deadlines;
    one git commit."""
    seq = record.seq + 1
    previous = {} if (extra or {}).get("kind") == "takeback" else record.body.get("asked", {})
    asked = chain.asked_since(pending(state), pending(step.state), previous, step.actor, seq)
    fields = dict(extra or {})
    settings = game.definition.deadlines
    if settings is not None:
        fields["clock"] = clocks.next_clock(
            settings, record.body.get("clock", {}), asked, seq, now, step.extended
        )
    new = chain.write_step(
        game.gd, game.definition, game.referee, game.secrets, game.comp, seq,
        record.hash, state, step.state, step.events, inputs, label, now, asked, fields,
    )  # fmt: skip
    git_commit(game.gd.root, f"record {seq}: {label}")
    return new


def enforce_deadlines(root: Path, referee: Identity, now: str) -> list[Outcome]:
    """Apply the game's no-move policy for every side whose deadline has passed."""
    outcomes: list[Outcome] = []
    with locked(root):
        game = open_game(root, referee)
        settings = game.definition.deadlines
        if settings is None:
            return outcomes
        for _ in range(len(SIDES) * steps.MAX_POLICY_ACTIONS):
            at = current(game)
            if at is None:
                break
            record, state = at
            late = clocks.overdue(record.body.get("clock", {}), now)
            if not late:
                break
            side = late[0]
            due = record.body["clock"][side]["due"]
            step = steps.deadline_step(game.comp, state, side, due, settings.policy)
            label = f"{_label(state, side)}: deadline {due} missed, policy {settings.policy}"
            inputs = [{"deadline": side, "due": due, "policy": settings.policy}]
            new = _write(game, record, state, step, inputs, label, now, {"kind": "deadline"})
            outcomes.append(Outcome(f"deadline:{side}", True, f"record {new.seq}: {label}"))
    return outcomes


def _takeback_request(game: Game, name: str, text: str, now: str) -> str:
    request = takebacks.parse_request(game.definition, text, name)
    record, _ = _current(game, name)
    _check_undoable(game, request, record, name)
    path = game.gd.request(request.undo, "takeback", request.side)
    if path.exists():
        raise Refused(
            f"{name}: {request.side} has already asked to take back record {request.undo}"
        )
    write_atomic(path, text)
    git_commit(game.gd.root, f"takeback of record {request.undo} requested by {request.side}")
    return (
        f"takeback of record {request.undo} requested by {request.side}; waiting for "
        f"{other(request.side)} to accept or refuse"
    )


def _check_undoable(
    game: Game, request: takebacks.Request, record: chain.Record, name: str
) -> None:
    if request.undo != record.seq or request.record != record.hash:
        raise Refused(
            f"{name}: undo: only the last adjudication (record {record.seq}) can be taken back"
        )
    reason = takebacks.why_not_undoable(
        record.seq, record.body, replayed_events(game, record.seq), request.side
    )
    if reason:
        raise Refused(f"{name}: takeback refused: {reason}")


def replayed_events(game: Game, seq: int) -> list:
    """The full events of record `seq` (the records keep only the public part): replayed
    from the state before it. Takeback records are never replayed here (never undone)."""
    record = chain.read_record(game.gd, game.definition, seq)
    body = record.body
    before = state_at(game, seq - 1)
    if body.get("kind") == "deadline":
        spec = body["inputs"][0]
        return steps.deadline_step(
            game.comp, before, spec["deadline"], spec["due"], spec["policy"]
        ).events
    if body.get("kind") == "takeback":
        return []
    path = game.gd.root / body["inputs"][0]["file"]
    turn = read_turn(game, path)
    previous = chain.read_record(game.gd, game.definition, seq - 1)
    return steps.turn_step(
        game.comp, before, turn, str(path), game.definition.deadlines,
        previous.body.get("clock", {}),
    ).events  # fmt: skip


def state_at(game: Game, seq: int) -> dict:
    """The full state after record `seq` (the referee's secret)."""
    text = docs.read_capped(game.gd.sealed(seq))
    return chain.open_state(game.definition, game.secrets, seq, text)


def _consent(game: Game, name: str, text: str, now: str) -> str:
    consent = takebacks.parse_consent(game.definition, text, name)
    record, state = _current(game, name)
    requester = other(consent.side)
    path = game.gd.request(record.seq, "takeback", requester)
    if not path.is_file():
        raise Refused(f"{name}: there is no open takeback request of record {record.seq}")
    request = takebacks.parse_request(game.definition, path.read_text(encoding="utf-8"), str(path))
    takebacks.check_consent(request, consent, name)
    answer_path = game.gd.request(record.seq, "consent", consent.side)
    if answer_path.exists():
        raise Refused(f"{name}: the takeback of record {record.seq} has already been answered")
    if consent.answer == "refuse":
        write_atomic(answer_path, text)
        git_commit(game.gd.root, f"takeback of record {record.seq} refused by {consent.side}")
        return f"takeback of record {record.seq} refused by {consent.side}"
    _check_undoable(game, request, record, name)
    write_atomic(answer_path, text)
    restored = state_at(game, record.seq - 1)
    step = steps.takeback_step(restored, record.seq, requester)
    inputs = [
        {"file": f"requests/{p.name}", "sha256": docs.sha256(p.read_text(encoding="utf-8"))}
        for p in (path, answer_path)
    ]
    label = f"takeback of record {record.seq} (asked by {requester}, accepted by {consent.side})"
    new = _write(
        game, record, state, step, inputs, label, now, {"kind": "takeback", "undo": record.seq}
    )
    return f"record {new.seq}: {label}"
