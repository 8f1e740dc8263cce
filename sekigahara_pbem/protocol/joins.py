"""Joining a game, with fair randomness: every seed is committed to before any is shown.

The game seed comes from three secret seeds (crypto/seeds.py). The order is what makes it
fair (issues 11 and 19, "seed timing"):

1. the referee's commitment is in the signed game definition;
2. each player's join (`seki-join/2`) carries only a commitment to its seed;
3. once both joins are in, each player is sent the other's signed join and only then
   sends its seed, sealed to the referee (`seki-seed/1`), naming the other's join.

So no seed leaves its owner before all three commitments exist, and a referee colluding
with one player cannot show it the other seeds in time for it to choose its own: the most
a party can do after seeing them is to withhold its seed, which stops the game from
starting, in plain view. `verify` checks the order from the documents: each seed document
names the other side's join, whose signature only that side can make.

A player's seed is derived from a signature of its own key over the game definition's
hash (deterministic Ed25519, RFC 8032), so nothing has to be kept between the join and the
seed, and the same key on another machine sends the same seed.

Joins of the first format (`seki-join/1`, the seed sealed inside the join) still verify in
old archives, with a note; the referee no longer accepts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..crypto import sealing, signing, sshsig
from ..crypto.framing import frame
from ..crypto.keys import Identity
from ..crypto.seeds import SEED_BYTES, seed_commitment, verify_seed
from ..refusal import N_, Refusal, quoted
from ..rules.vocab import SIDES, other
from . import binding, headers
from . import documents as docs
from .game import Definition

JOIN_FORMAT_V1 = "seki-join/1"
JOIN_FORMAT = "seki-join/2"
SEED_FORMAT = "seki-seed/1"
DERIVATION = "seed@sekigahara-pbem"  # the SSHSIG namespace of the derivation signature
DERIVATION_SALT = b"seki-player-seed/1"


@dataclass(frozen=True)
class Join:
    side: str
    commitment: str
    text: str
    sealed_seed: str | None = None  # only in seki-join/1

    @property
    def first_format(self) -> bool:
        return self.sealed_seed is not None


@dataclass(frozen=True)
class SeedFile:
    """A player's seed, sealed to the referee, sent once it held the other's join."""

    side: str
    other_join: str  # sha256 of the other side's signed join
    sealed_seed: str
    text: str


def _context(definition: Definition, side: str) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, 0, definition.referee.name, f"seed-{side}")


def player_side(definition: Definition, identity: Identity) -> str:
    """The side `identity` plays in the game; refused if it plays none."""
    side = definition.side_of(identity.public)
    if side is None:
        raise Refusal(
            N_("the key {name} is not one of the players of {game}"),
            name=quoted(identity.public.name),
            game=definition.game_id,
        )
    return side


def player_seed(definition: Definition, identity: Identity) -> bytes:
    """The player's secret seed for this game: HKDF of its key's signature over the
    definition (only that key can make it; the same every time)."""
    side = player_side(definition, identity)
    message = frame(definition.game_id, definition.hash, side)
    signature = sshsig.sign(identity.signing, DERIVATION, message)
    hkdf = HKDF(hashes.SHA256(), SEED_BYTES, salt=DERIVATION_SALT, info=message)
    return hkdf.derive(signature.encode("ascii"))


def make_join(definition: Definition, identity: Identity) -> str:
    """The player's signed join: a commitment to its seed, and nothing of the seed."""
    side = player_side(definition, identity)
    body = {
        "format": JOIN_FORMAT,
        "game": definition.game_id,
        "side": side,
        **binding.field(definition),
        "seed_commitment": seed_commitment(player_seed(definition, identity), side),
    }
    return signing.sign(docs.dump(body), identity)


def parse_join(definition: Definition, text: str, where: str) -> Join:
    """Check a join (either format): signed by a player of this game, for this definition."""
    head = headers.signed(definition, text, where, (JOIN_FORMAT_V1, JOIN_FORMAT))
    sealed = None
    if head.body["format"] == JOIN_FORMAT_V1:
        sealed = docs.unwrap(docs.field(head.body, "seed", str, where))
    return Join(head.side, docs.field(head.body, "seed_commitment", str, where), text, sealed)


def make_seed(definition: Definition, identity: Identity, other_join: str, where: str) -> str:
    """The player's seed file, once it holds the other side's signed join: the seed sealed
    to the referee, naming that join (so every commitment was in before this seed left)."""
    side = player_side(definition, identity)
    theirs = parse_join(definition, other_join, where)
    if theirs.side != other(side):
        raise docs.DocumentError(
            where,
            N_("this is {side}'s own join, not {other}'s"),
            side=theirs.side,
            other=other(side),
        )
    if theirs.first_format:
        raise docs.DocumentError(
            where, N_("{format} joins have no separate seed"), format=JOIN_FORMAT_V1
        )
    seed = player_seed(definition, identity)
    token = sealing.seal_text(seed, definition.referee.encryption, _context(definition, side))
    body = {
        "format": SEED_FORMAT,
        "game": definition.game_id,
        "side": side,
        **binding.field(definition),
        "other_join": docs.sha256(theirs.text),
        "seed": docs.wrap(token),
    }
    return signing.sign(docs.dump(body), identity)


def parse_seed(definition: Definition, text: str, where: str) -> SeedFile:
    """A seed file, signed by a player of this game, for this definition."""
    head = headers.signed(definition, text, where, SEED_FORMAT)
    return SeedFile(
        side=head.side,
        other_join=docs.field(head.body, "other_join", str, where),
        sealed_seed=docs.unwrap(docs.field(head.body, "seed", str, where)),
        text=text,
    )


def check_order(seed_file: SeedFile, joined: dict[str, Join], where: str) -> None:
    """The seed was sent after its sender held the other side's join (the one on file)."""
    theirs = joined.get(other(seed_file.side))
    if theirs is None or docs.sha256(theirs.text) != seed_file.other_join:
        raise docs.DocumentError(
            f"{where}: other_join",
            N_("does not name {side}'s join on file"),
            side=other(seed_file.side),
        )


def open_seed(definition: Definition, join: Join, referee: Identity, sealed: str) -> bytes:
    """The referee opens a player's seed and checks it against the join's commitment."""
    context = _context(definition, join.side)
    seed = sealing.open_text(sealed, referee.encryption, context)
    if len(seed) != SEED_BYTES or not verify_seed(join.commitment, seed, join.side):
        raise docs.DocumentError(join.side, N_("the sealed seed does not match its commitment"))
    return seed


def opening(definition: Definition, players: dict[str, Identity]) -> list[tuple[str, str]]:
    """The four documents that start a game, named, in an order the referee accepts: both
    joins, then both seeds (for demos, tests and benchmarks, where one process holds
    both players' keys)."""
    joined = {s: make_join(definition, players[s]) for s in SIDES}
    seeds = [make_seed(definition, players[s], joined[other(s)], "join") for s in SIDES]
    return [(f"join-{s}.txt", joined[s]) for s in SIDES] + [
        (f"seed-{s}.txt", text) for s, text in zip(SIDES, seeds, strict=True)
    ]
