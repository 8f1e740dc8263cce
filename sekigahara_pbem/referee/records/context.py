"""A game loaded for adjudication: its directory, definition, the referee's secrets and
key, and the component set, with the reads every record kind needs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ...crypto.keys import Identity
from ...protocol import chain, joins, turns
from ...protocol import documents as docs
from ...protocol.component_files import game_components
from ...protocol.game import Definition, Secrets, load, open_secrets
from ...protocol.store import GameDir, StoreError, git_commit
from ...refusal import N_, Code, Refusal
from ...rules.components import Components
from ...rules.state_types import State
from ..steps import Refused


@dataclass(frozen=True)
class Outcome:
    name: str
    accepted: bool
    message: str
    code: str | None = None  # why it was refused (refusal.py)
    refusal: Refusal | None = None  # the reason, to be put in the sender's language


@dataclass
class Game:
    """Everything an adjudication needs, loaded once."""

    gd: GameDir
    definition: Definition
    secrets: Secrets
    referee: Identity
    comp: Components
    mailing: bool = False  # the robot mails what each step calls for (mail/robot.py)

    def commit(self, message: str) -> None:
        """One git commit of the game directory, signed by the referee's key."""
        git_commit(self.gd.root, message, self.referee)


def open_game(root: Path, referee: Identity) -> Game:
    gd = GameDir(root)
    definition = load(gd)
    secrets = open_secrets(gd, definition, referee)
    comp = game_components(root, definition.components)
    return Game(gd, definition, secrets, referee, comp)


def current(game: Game) -> tuple[chain.Record, State] | None:
    """The last record and the state after it (None before the game has started)."""
    seq = game.gd.last_seq()
    if seq == 0:
        return None
    record = chain.read_record(game.gd, game.definition, seq)
    text = docs.read_capped(game.gd.sealed(seq))
    if docs.sha256(text) != record.body["sealed_state"]:
        raise StoreError(
            N_("{file} does not match record {seq}"), file=f"sealed/{seq:06d}.txt", seq=seq
        )
    return record, _opened(game, seq, text)


def started(game: Game, name: str) -> tuple[chain.Record, State]:
    """The last record and state, or the input is refused: the game has not started."""
    now_at = current(game)
    if now_at is None:
        raise Refused(
            N_("the game has not started (both players must join and send their seeds)"),
            code=Code.NOT_STARTED,
            at=name,
        )
    return now_at


def state_at(game: Game, seq: int) -> State:
    """The full state after record `seq` (the referee's secret)."""
    text = docs.read_capped(game.gd.sealed(seq))
    return _opened(game, seq, text)


def _opened(game: Game, seq: int, text: str) -> State:
    """A sealed state of the referee's own game directory opened: `writer.build` sealed it
    from a `State`, so its JSON is one again (`cast`: `open_state` reads any JSON)."""
    return cast(State, chain.open_state(game.definition, game.secrets, seq, text))


def joined(game: Game) -> dict[str, joins.Join]:
    """The joins on file, by side."""
    found = {}
    for side in game.definition.players:
        path = game.gd.join(side)
        if path.is_file():
            found[side] = joins.parse_join(game.definition, docs.read_capped(path), str(path))
    return found


def read_turn(game: Game, path: Path) -> turns.Turn:
    """An accepted turn file from turns/: sealed (opened with the game's state key) or,
    in games from before sealing, clear; in games from before files were bound to their
    game's definition, naming none (protocol/binding.py)."""
    text = docs.read_capped(path)
    if turns.is_sealed(text):
        key = game.secrets.state_key
        text = turns.unseal(game.definition, text, key, str(path), archived=True)
    return turns.parse(game.definition, text, str(path), archived=True)
