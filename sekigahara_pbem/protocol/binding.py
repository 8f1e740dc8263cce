"""Binding a signed document to its game: the `definition` field, the SHA-256 of the
game's `game.txt` as signed by the referee (`Definition.hash`).

A game id is a name the referee chooses, and two games may share one (a rematch, another
referee's game): a document that named only the id was valid in every game of that id
with the same keys, so a resignation signed in one game was accepted in the other
(issue 28). `game.txt` holds a fresh state key and seed commitment, so its hash names one
game. Every document a party signs for a game (turn files and their sealed envelopes,
joins, seeds, takeback requests and answers) and every packet names it, and every reader
checks it: naming another definition is refused as WRONG_GAME.

Documents written before this binding name no definition. Those already in a game's
archive are still read there (`verify`, and the referee's own re-reading of files it
accepted), with a note from `verify`; anything arriving is refused (WRONG_VERSION), since
it could have been signed for any game of the same id.
"""

from __future__ import annotations

from ..refusal import N_, Code
from . import documents as docs
from .game import Definition, tool_version

FIELD = "definition"


def field(definition: Definition) -> dict[str, str]:
    """The binding, as the writers put it in a body (after `game`)."""
    return {FIELD: definition.hash}


def check(definition: Definition, body: dict, where: str) -> bool:
    """True if the body names this game's definition, False if it names none (written
    before documents were bound); refused if it names anything else."""
    if FIELD not in body:
        return False
    if body[FIELD] != definition.hash:
        raise docs.DocumentError(
            f"{where}: {FIELD}",
            N_("signed for another game with the id {game} (another game.txt)"),
            code=Code.WRONG_GAME,
            game=definition.game_id,
        )
    return True


def require(definition: Definition, body: dict, where: str) -> None:
    """Refused unless the body names this game's definition (`check`)."""
    if not check(definition, body, where):
        raise unbound(definition, where)


def unbound(definition: Definition, where: str) -> docs.DocumentError:
    """The refusal of a document that arrives naming no definition."""
    return docs.DocumentError(
        f"{where}: {FIELD}",
        N_(
            "names no game definition, so it could be from any game with the id {game}; "
            "make it again with this version of seki ({version})"
        ),
        code=Code.WRONG_VERSION,
        game=definition.game_id,
        version=tool_version(),
    )
