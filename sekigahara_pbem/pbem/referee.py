"""The referee's adjudication: accept joins and turn files, apply them with the engine, and
write one record, sealed state and pair of packets per accepted input, each step one git
commit. Refused inputs are kept under rejected/ with the reason; the game is unchanged.

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
from ..rules.engine import apply, pending
from ..rules.setup import setup
from ..rules.vocab import SIDES, Malformed, RuleViolation
from . import chain, joins, turns
from . import documents as docs
from .game import Definition, Secrets, load, open_secrets
from .store import GameDir, StoreError, git_commit, locked, write_atomic


class Refused(ValueError):
    """An input that is understood but cannot be applied now."""


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
    text = game.gd.sealed(seq).read_text(encoding="utf-8")
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
                kept = game.gd.reject(name, data, str(exc))
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
    if "format: seki-join/1" in body.splitlines():
        return _join(game, name, text, now)
    return _turn(game, name, text, now)


def _join(game: Game, name: str, text: str, now: str) -> str:
    join = joins.parse_join(game.definition, text, name)
    if game.gd.last_seq() > 0:
        raise Refused(f"{name}: the game has already started")
    joins.open_seed(game.definition, join, game.referee)
    write_atomic(game.gd.join(join.side), text)
    git_commit(game.gd.root, f"{join.side} joined")
    if all(game.gd.join(s).is_file() for s in SIDES):
        _start(game, now)
        return f"{join.side} joined; both sides are in: the game is set up (record 1)"
    return f"{join.side} joined; waiting for the other side"


def _start(game: Game, now: str) -> None:
    """Rule 5 setup from the three seeds; record 1 and the first packets."""
    seeds = {}
    inputs = []
    for side in SIDES:
        path = game.gd.join(side)
        join = joins.parse_join(game.definition, path.read_text(encoding="utf-8"), str(path))
        seeds[side] = joins.open_seed(game.definition, join, game.referee)
        inputs.append({"file": f"joins/{side}.txt", "sha256": docs.sha256(join.text)})
    seed = game_seed(
        game.secrets.seed, seeds["ishida"], seeds["tokugawa"], game_id=game.definition.game_id
    )
    state, events = setup(game.comp, seed, game.definition.options)
    asked = chain.asked_since([], pending(state), {}, None, 1)
    chain.write_step(
        game.gd, game.definition, game.referee, game.secrets, game.comp, 1,
        game.definition.hash, None, state, events, inputs, "setup (rule 5)", now, asked,
    )  # fmt: skip
    git_commit(game.gd.root, "record 1: setup (rule 5)")


def _turn(game: Game, name: str, text: str, now: str) -> str:
    turn = turns.parse(game.definition, text, name)
    now_at = current(game)
    if now_at is None:
        raise Refused(f"{name}: the game has not started (both players must join first)")
    record, state = now_at
    seq = record.seq
    asked = record.body.get("asked", {})
    if turn.side not in asked:
        waiting = ", ".join(sorted(asked)) or "nobody (the game is over)"
        raise Refused(f"{name}: no decision is asked of {turn.side} now; waiting for {waiting}")
    if not asked[turn.side] <= turn.answers <= seq:
        raise Refused(
            f"{name}: answers: {turn.answers} is stale or unknown; {turn.side} was asked in "
            f"packet {asked[turn.side]} (the latest is {seq})"
        )
    label = _label(state, turn.side)
    new, events = apply_turn(game.comp, state, turn, name)
    new_seq = seq + 1
    write_atomic(game.gd.turn(new_seq, turn.side), text)
    inputs = [
        {"file": f"turns/{game.gd.turn(new_seq, turn.side).name}", "sha256": docs.sha256(text)}
    ]
    new_asked = chain.asked_since(pending(state), pending(new), asked, turn.side, new_seq)
    chain.write_step(
        game.gd, game.definition, game.referee, game.secrets, game.comp, new_seq,
        record.hash, state, new, events, inputs, label, now, new_asked,
    )  # fmt: skip
    git_commit(game.gd.root, f"record {new_seq}: {label}")
    return f"record {new_seq}: {label} ({len(turn.actions)} action(s))"


def _label(state: dict, side: str) -> str:
    decision = next((d["decision"] for d in pending(state) if d["side"] == side), "?")
    return f"week {state['week']} turn {state['turn']}: {side} {decision}"


def apply_turn(comp: Components, state: dict, turn: turns.Turn, name: str) -> tuple[dict, list]:
    """Every action in order, each while it is this side's decision; all or nothing."""
    events: list = []
    for i, action in enumerate(turn.actions):
        waiting = pending(state)
        if not any(d["side"] == turn.side for d in waiting):
            who = ", ".join(f"{d['side']} ({d['decision']})" for d in waiting) or "nobody"
            raise Refused(
                f"{name}: actions[{i}]: it is no longer {turn.side}'s decision (waiting for "
                f"{who}); send the remaining actions when asked"
            )
        try:
            state, new_events = apply(state, comp, turn.side, action)
        except (RuleViolation, Malformed) as exc:
            raise Refused(f"{name}: actions[{i}]: {exc}") from None
        events += new_events
    return state, events
