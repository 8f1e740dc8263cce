"""The head of a document a player signs for a game: its format, its game, its side,
signed by that side's key, and bound to this game's definition (protocol/binding.py).

Turn files and their sealed envelopes (protocol/turns.py), takeback requests and answers
(protocol/takebacks.py), joins and seeds (protocol/joins.py) are read through `signed`, a draft
turn file through `unsigned`; a document the referee signs to one side (a note, a packet)
checks its game with `check_game`. The checks run in one order, each refused with its
code: the signature, the format, the game (WRONG_GAME), the definition (another one:
WRONG_GAME; none, unless `archived`: WRONG_VERSION), the side, the side's key (WRONG_SIDE).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..crypto import signing
from ..crypto.keys import PublicKey
from ..refusal import N_, Code
from ..rules.vocab import SIDES
from . import binding
from . import documents as docs
from .game import Definition


@dataclass(frozen=True)
class Head:
    """A signed document whose head checked out: its body, side and signer, and whether it
    names its game's definition (False only for an archived document from before)."""

    body: dict
    side: str
    signer: PublicKey
    bound: bool


def check_game(definition: Definition, body: dict, where: str) -> None:
    """Refused as WRONG_GAME unless the body's `game` is this game's id."""
    if docs.field(body, "game", str, where) != definition.game_id:
        raise docs.DocumentError(
            f"{where}: game",
            N_("not for game {game}"),
            code=Code.WRONG_GAME,
            game=definition.game_id,
        )


def unsigned(definition: Definition, body: dict, where: str) -> tuple[str, bool]:
    """The side an (unsigned) body names and whether it is bound, after checking that it is
    for this game and names this definition or none (a draft: `seki turn sign` adds it)."""
    check_game(definition, body, where)
    bound = binding.check(definition, body, where)
    side = docs.field(body, "side", str, where)
    if side not in SIDES:
        raise docs.DocumentError(
            f"{where}: side", N_("expected one of {words}"), words=", ".join(SIDES)
        )
    return side, bound


def signed(
    definition: Definition,
    text: str,
    where: str,
    formats: str | tuple[str, ...],
    *,
    archived: bool = False,
    or_referee: bool = False,
) -> Head:
    """A document of one of `formats`, signed by the player of the side it names (or by
    the game's referee, with `or_referee`: a turn file it sealed at rest), for this game's
    definition. `archived`: a file of the game's own archive, which may be from before
    documents were bound; one arriving must be bound."""
    trusted = [*definition.players.values()] + ([definition.referee] if or_referee else [])
    verified = signing.verify(text, trusted)
    body = docs.load(verified.body, where, formats, plain=True)
    side, bound = unsigned(definition, body, where)
    if not (archived or bound):
        raise binding.unbound(definition, where)
    allowed = [definition.players[side]] + ([definition.referee] if or_referee else [])
    if verified.signer.key_id not in {k.key_id for k in allowed}:
        raise docs.DocumentError(
            f"{where}: side",
            N_("signed by {signer}, who does not play {side}"),
            code=Code.WRONG_SIDE,
            signer=verified.signer.name,
            side=side,
        )
    return Head(body, side, verified.signer, bound)
