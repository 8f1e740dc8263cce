"""Joining a game (fair randomness): each player answers the game definition with a secret
seed sealed to the referee and a public commitment to it, signed.

The referee cannot see a player's seed before committing to its own (its commitment is in
the signed definition the player answers), and a player cannot see the others' seeds, so
no one steers the shuffles; after the game all seeds are revealed and checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..crypto import sealing, signing
from ..crypto.keys import Identity
from ..crypto.seeds import SEED_BYTES, new_seed, seed_commitment, verify_seed
from ..rules.vocab import SIDES
from . import documents as docs
from .game import Definition

JOIN_FORMAT = "seki-join/1"


@dataclass(frozen=True)
class Join:
    side: str
    sealed_seed: str
    commitment: str
    text: str


def _context(definition: Definition, side: str) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, 0, definition.referee.name, f"seed-{side}")


def make_join(definition: Definition, identity: Identity) -> str:
    """The player's signed join: a fresh seed sealed to the referee, and its commitment."""
    side = definition.side_of(identity.public)
    if side is None:
        raise ValueError(
            f"the key {identity.public.name!r} is not one of the players of {definition.game_id}"
        )
    seed = new_seed()
    token = sealing.seal_text(seed, definition.referee.encryption, _context(definition, side))
    body = {
        "format": JOIN_FORMAT,
        "game": definition.game_id,
        "side": side,
        "definition": definition.hash,
        "seed_commitment": seed_commitment(seed, side),
        "seed": docs.wrap(token),
    }
    return signing.sign(docs.dump(body), identity)


def parse_join(definition: Definition, text: str, where: str) -> Join:
    """Check a join: signed by a player of this game, for this definition."""
    verified = signing.verify(text, definition.players.values())
    body = docs.load(verified.body, where, JOIN_FORMAT)
    side = docs.field(body, "side", str, where)
    if side not in SIDES or definition.players[side].key_id != verified.signer.key_id:
        raise docs.DocumentError(f"{where}: side", f"signed by {verified.signer.name}, not {side}")
    if docs.field(body, "game", str, where) != definition.game_id:
        raise docs.DocumentError(f"{where}: game", f"not for game {definition.game_id}")
    if docs.field(body, "definition", str, where) != definition.hash:
        raise docs.DocumentError(f"{where}: definition", "answers another game definition")
    return Join(
        side=side,
        sealed_seed=docs.unwrap(docs.field(body, "seed", str, where)),
        commitment=docs.field(body, "seed_commitment", str, where),
        text=text,
    )


def open_seed(definition: Definition, join: Join, referee: Identity) -> bytes:
    """The referee opens a player's seed and checks it against the public commitment."""
    seed = sealing.open_text(join.sealed_seed, referee.encryption, _context(definition, join.side))
    if len(seed) != SEED_BYTES or not verify_seed(join.commitment, seed, join.side):
        raise docs.DocumentError(join.side, "the sealed seed does not match its commitment")
    return seed
