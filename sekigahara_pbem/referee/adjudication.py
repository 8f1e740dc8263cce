"""The referee's adjudication: each input is admitted by its record kind (records.KINDS),
which writes one record, sealed state and pair of packets per accepted input, each step
one git commit. A refused input (`refusal.Refusal`) is kept under rejected/ with the
reason, sealed to the state key (a refusal may quote what only its sender may know); the
game is unchanged. Any other exception is a bug: the run stops, and the game is put back
as it was rather than the sender told to fix a file that was never wrong.

Adjudication loads the last sealed state, never replays from genesis, so its cost does not
grow with the length of the game.
"""

from __future__ import annotations

from pathlib import Path

from ..crypto import signing
from ..crypto.keys import Identity
from ..protocol import chain
from ..protocol import documents as docs
from ..protocol.store import locked
from ..refusal import N_, Code, Refusal
from . import records
from .records import deadline
from .records.context import Game, Outcome, current, joined, open_game, read_turn, state_at
from .records.opening import player_seeds
from .records.writer import recover
from .steps import Refused

__all__ = [
    "Game", "Outcome", "Refused", "adjudicate", "current", "enforce_deadlines", "joined",
    "open_game", "player_seeds", "read_turn", "state_at",
]  # fmt: skip

enforce_deadlines = deadline.enforce


def adjudicate(
    root: Path, referee: Identity, inputs: list[tuple[str, bytes]], now: str, mailing: bool = False
) -> list:
    """Apply each input in turn; one git commit per accepted input. `mailing`: the
    referee's robot runs the game, and mails what a step calls for itself (what is said
    of a step then says so)."""
    with locked(root):
        game = open_game(root, referee)
        game.mailing = mailing
        recover(game)
        outcomes = []
        for name, data in inputs:
            done = False
            try:
                message = _one(game, name, data, now)
                done = True
            except Refusal as exc:  # the sender's to fix: kept, sealed, with the reason
                kept = game.gd.reject(
                    name, chain.seal_rejected(game.definition, name, data, str(exc))
                )
                refused = Refusal(
                    N_("{reason} (kept as {kept})"),
                    code=exc.code,
                    rule=exc.rule,
                    reason=exc,
                    kept=kept.name,
                )
                outcomes.append(Outcome(name, False, str(refused), exc.code, refused))
                game.commit(f"rejected {name}")
                done = True
                continue
            finally:
                if not done:  # a bug, or the run stopped: the game as it was
                    recover(game)
            outcomes.append(Outcome(name, True, message))
        return outcomes


def _one(game: Game, name: str, data: bytes, now: str) -> str:
    if len(data) > docs.MAX_BYTES:
        raise docs.DocumentError(
            name, N_("larger than {limit} bytes"), code=Code.TOO_LARGE, limit=docs.MAX_BYTES
        )
    text = docs.decode(data, name)
    body, _ = signing.split(text)
    admit = records.admitting(body.splitlines())  # by the format it names (records.KINDS)
    return admit(game, name, text, now)
