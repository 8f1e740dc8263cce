"""The two-party documents (docs/two-party.md, "Files"): the game, the records, the
reveals. Each is a signed document of the usual envelope (crypto/signing.py); records
form a chain, each naming the hash of the one before.

    seki-2p-game/1     game id, a random nonce, components, options, both players' keys;
                       signed by its creator, joined by the other side's first record
    seki-2p-record/1   n (its place in the exchange: the joins are 0 and 1), side, prev
                       (hash of record n-1; the joins name the game), the side's
                       commitments and contribution, and the entries, each with its
                       public form as the change from the one before and that form's hash
    seki-2p-reveal/1   the side's secret, at the end, when it was written, and the last
                       record its author held (n and hash): the audit replays the game
                       with it, and no archive can end before that record

A side's secret is derived from its key's signature over the game (deterministic Ed25519,
as a referee game's player seed), so the same key gives it again and nothing is kept. The
game's hash covers its nonce, so no two games give a side the same secret: the reveal of
one game says nothing of a rematch with the same id, keys and options.

Every two-party document is another party's writing: a file of it is read under the size
limit and as UTF-8 (`documents.read_capped`), its body without YAML aliases and holding
plain data only (`_load`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..crypto import signing, sshsig
from ..crypto.framing import frame
from ..crypto.keys import Identity, PublicKey, parse_public_line
from ..protocol import clock
from ..protocol import documents as docs
from ..protocol.clock import MAX_HOURS
from ..protocol.game import check_address, check_game_id
from ..refusal import N_, Code, Refusal, quoted, type_words
from ..rules.state import canonical, game_options
from ..rules.state_types import State
from ..rules.vocab import SIDES
from . import GAME_FORMAT
from .changes import diff, patch, plain
from .exchange import ASIDES, RECORDS, Entry, Record

_SALT = re.compile(r"[0-9a-f]{64}")  # a salt, a nonce, a hash, a commitment: SHA-256 in hex
# The fields of a record (`record_text`), a join's too, and of an entry: a record holds
# these and no other, so no two readers can read one differently.
RECORD_FIELDS = frozenset(
    ("format", "game", "n", "side", "seq", "prev", "written", "contribution", "commitments",
     "entries")
)  # fmt: skip
JOIN_FIELDS = RECORD_FIELDS | {"definition", "secret_commitment", "dealt"}
ENTRY_FIELDS = frozenset(("action", "steps", "opened"))
COMPUTED_FIELDS = ENTRY_FIELDS | {"change", "public"}  # an entry not held: its public form
RECORD_FORMAT = "seki-2p-record/1"
REVEAL_FORMAT = "seki-2p-reveal/1"
DERIVATION = "secret@sekigahara-pbem"  # the SSHSIG namespace of the secret's derivation
DERIVATION_SALT = b"seki-2p-secret/1"


def _load(body: str, where: str, fmt: str) -> dict:
    """A two-party document's body: a mapping of the format, plain YAML (no aliases) of
    plain data (`_plain`)."""
    data = docs.load(body, where, fmt, plain=True)
    _plain(data, where)
    return data


_PLAIN = (str, int, type(None), list, dict)  # bool is an int


def _plain(data: object, where: str) -> None:
    """Refuse any value but text, whole numbers, true/false, null, lists and mappings with
    text keys: all that seki writes. YAML also reads dates, sets and bytes, which the
    state's hashing cannot take (every pass over such a record would fail), and floats,
    which no state holds (docs/state.md)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if not isinstance(value, _PLAIN):
            raise docs.DocumentError(
                where, N_("holds a {kind}: a document holds plain data only"), code=Code.MALFORMED,
                kind=type_words(type(value)),
            )  # fmt: skip
        if isinstance(value, dict):
            if not all(isinstance(k, str) for k in value):
                raise docs.DocumentError(
                    where, N_("a mapping key is not text"), code=Code.MALFORMED
                )
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


@dataclass(frozen=True)
class Game:
    game_id: str
    components: str
    options: dict
    players: dict[str, PublicKey]
    text: str
    nonce: str  # 32 random bytes, hex: no two games are the same text
    addresses: dict[str, str] | None = None  # side -> mail address, for seki play by mail
    deadline_hours: int | None = None  # a side silent this long after the other's record forfeits

    @property
    def hash(self) -> str:
        return docs.sha256(self.text)

    def side_of(self, key: PublicKey) -> str | None:
        return next((s for s, k in self.players.items() if k.key_id == key.key_id), None)


def make_game(
    game_id: str,
    components: str,
    options: dict,
    players: dict[str, PublicKey],
    creator: Identity,
    addresses: dict[str, str] | None = None,
    deadline_hours: int | None = None,
) -> str:
    """The signed game: its creator must be one of the two players, its options those the
    engine knows (`game_options`). A random nonce makes it unlike any other game, a
    rematch with the same id, keys and options included: the sides' secrets derive from
    it (`secret`)."""
    check_game_id(game_id)
    game_options(options)
    if creator.public.key_id not in {k.key_id for k in players.values()}:
        raise Refusal(
            N_("the creator of a two-party game must be one of its players"), code=Code.WRONG_SIDE
        )
    body: dict[str, object] = {
        "format": GAME_FORMAT,
        "game": game_id,
        "nonce": os.urandom(32).hex(),
        "components": components,
        "options": options,
        "players": {s: players[s].line() for s in SIDES},
    }
    if addresses:
        body["addresses"] = {s: check_address(a, f"address of {s}") for s, a in addresses.items()}
    if deadline_hours is not None:
        body["deadline_hours"] = _hours(deadline_hours, "deadline_hours")
    return signing.sign(docs.dump(body), creator)


def _hours(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HOURS:
        raise docs.DocumentError(where, N_("expected whole hours from 1 to {max}"), max=MAX_HOURS)
    return value


def read_game(text: str, where: str) -> Game:
    """The game as signed by one of the players it names, with its nonce and options the
    engine knows: the options are checked here, where every side reads the game (when it
    is created, joined, played or verified), by the engine's one check (`game_options`),
    so the game played is the one signed."""
    body, _ = signing.split(text)
    data = _load(body, where, GAME_FORMAT)
    players_raw = docs.field(data, "players", dict, where)
    players = {}
    for s in SIDES:
        line = docs.field(players_raw, s, str, f"{where}: players")
        players[s] = parse_public_line(line)
    signing.verify(text, players.values())
    options = docs.field(data, "options", dict, where)
    game_options(options, f"{where}: options")
    nonce = docs.field(data, "nonce", str, where)
    if not _SALT.fullmatch(nonce):
        raise docs.DocumentError(
            f"{where}: nonce", N_("expected 64 hex digits"), code=Code.MALFORMED
        )
    addresses = data.get("addresses")
    if addresses is not None:
        if not isinstance(addresses, dict) or set(addresses) - set(SIDES):
            raise docs.DocumentError(where, N_("addresses: expected side: address"))
        addresses = {s: check_address(str(a), f"{where}: addresses") for s, a in addresses.items()}
    hours = data.get("deadline_hours")
    return Game(
        check_game_id(docs.field(data, "game", str, where)),
        docs.field(data, "components", str, where),
        options,
        players,
        text,
        nonce,
        addresses,
        None if hours is None else _hours(hours, f"{where}: deadline_hours"),
    )


def secret(game: Game, identity: Identity) -> bytes:
    """The side's secret for this game: HKDF of its key's signature over the game (its
    hash covers the game's nonce: each game, each secret)."""
    side = game.side_of(identity.public)
    if side is None:
        raise Refusal(N_("this key is not one of the game's players"), code=Code.WRONG_SIDE)
    message = frame(game.game_id, game.hash, side)
    signature = sshsig.sign(identity.signing, DERIVATION, message)
    hkdf = HKDF(hashes.SHA256(), 32, salt=DERIVATION_SALT, info=message)
    return hkdf.derive(signature.encode("ascii"))


def secret_commitment(game: Game, side: str, value: bytes) -> str:
    """SHA-256 over the framed tag, game, side and secret: the secret is 32 random-looking
    bytes, so it needs no salt to stay hidden."""
    return hashlib.sha256(frame("seki-2p-secret/1", game.game_id, side, value.hex())).hexdigest()


def record_text(
    game: Game,
    record: Record,
    n: int,
    prev: str,
    base: Mapping[str, object],
    identity: Identity,
    extra: dict,
    written: str,
) -> str:
    """A record signed by its side; its entries' public forms as changes from `base`."""
    entries = []
    for e in record.entries:
        opened = {h: list(pair) for h, pair in e.opened.items()}
        item: dict = {"action": e.action, "steps": e.steps, "opened": opened}
        if e.public is not None:  # a takeback record holds the whole public form
            whole = isinstance(e.action, dict) and e.action.get("type") in ASIDES
            item["change"] = diff({} if whole else base, e.public)
            item["public"] = public_hash(e.public)
            base = base if whole else e.public
        entries.append(item)
    body = {
        "format": RECORD_FORMAT,
        "game": game.game_id,
        "n": n,
        "side": record.side,
        "seq": record.seq,
        "prev": prev,
        "written": written,
        "contribution": record.contribution.hex(),
        "commitments": record.commitments,
        **extra,
        "entries": entries,
    }
    return signing.sign(docs.dump(json.loads(json.dumps(body))), identity)  # no shared objects


def public_hash(public: Mapping[str, object]) -> str:
    return hashlib.sha256(canonical(public).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Received:
    record: Record
    n: int
    prev: str
    body: dict
    written: datetime


def read_record(
    game: Game, text: str, where: str, base_for: Callable[[str, int], Mapping[str, object]]
) -> Received:
    """A record of either side, signature checked, its public forms rebuilt from
    `base_for(side, seq)`, the public form its reader holds. Raises a Refusal naming the
    field that is wrong."""
    verified = signing.verify(text, game.players.values())
    data = _load(verified.body, where, RECORD_FORMAT)
    if docs.field(data, "game", str, where) != game.game_id:
        raise docs.DocumentError(where, N_("the record is for another game"), code=Code.WRONG_GAME)
    side = docs.field(data, "side", str, where)
    if side not in SIDES or game.players[side].key_id != verified.signer.key_id:
        raise docs.DocumentError(
            where, N_("the record is not signed by the side it names"), code=Code.WRONG_SIDE
        )
    seq = docs.field(data, "seq", int, where)
    n = docs.field(data, "n", int, where)
    _only_fields(data, JOIN_FIELDS if n < 2 else RECORD_FIELDS, where)
    base = base_for(side, seq)
    entries = []
    for i, item in enumerate(docs.field(data, "entries", list, where)):
        at = f"{where}: entries[{i}]"
        if not isinstance(item, dict):
            raise docs.DocumentError(at, N_("expected a mapping"))
        action = item.get("action")
        if action is not None and not isinstance(action, dict):
            raise docs.DocumentError(at, N_("action: expected a mapping or null"))
        try:
            plain(action)
        except Refusal as exc:
            raise docs.DocumentError(at, N_("action: {problem}"), problem=exc) from None
        steps = docs.field(item, "steps", int, at)
        if steps < -1:
            raise docs.DocumentError(
                at, N_("steps: expected -1 (held) or a count"), code=Code.MALFORMED
            )
        _only_fields(item, ENTRY_FIELDS if steps < 0 else COMPUTED_FIELDS, at)
        opened = _opened(docs.field(item, "opened", dict, at), at)
        public: State | None = None
        if steps >= 0:
            whole = isinstance(action, dict) and action.get("type") in ASIDES
            try:
                changed = patch({} if whole else base, docs.field(item, "change", list, at))
                # a public form as its author claims it, which the reader's engine checks
                # against its own (exchange.Party.read)
                public = cast(State, changed)
            except Refusal as exc:
                raise docs.DocumentError(at, N_("change: {problem}"), problem=exc) from None
            if public_hash(public) != docs.field(item, "public", str, at):
                raise docs.DocumentError(at, N_("public: not the hash of the changed public form"))
            base = base if whole else public
        entries.append(Entry(side, action, steps, opened, public))
    commitments = docs.field(data, "commitments", dict, where)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in commitments.items()):
        raise docs.DocumentError(where, N_("commitments: expected handle: commitment"))
    for h, value in commitments.items():
        if not _SALT.fullmatch(value):  # what crypto/commitments.py `commit` writes
            raise docs.DocumentError(
                f"{where}: commitments: {h}",
                N_("expected a commitment (64 lower-case hex digits)"),
                code=Code.MALFORMED,
                rule=RECORDS,
            )
    contribution = docs.hex_field(data, "contribution", where)
    record = Record(side, seq, entries, commitments, contribution)
    prev = docs.field(data, "prev", str, where)
    return Received(record, n, prev, data, _written(data, where))


def _only_fields(data: dict, known: frozenset[str], where: str) -> None:
    """Refuse a field the document does not have: no reader reads it, so a signed record
    would say more than any side takes from it."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise docs.DocumentError(
            where,
            N_("holds {field}, which a record does not have"),
            code=Code.MALFORMED,
            rule=RECORDS,
            field=quoted(unknown[0]),
        )


def record_body(text: str, where: str) -> dict:
    """A record's body, its signature not checked: for what its file says of itself (the
    kind of a record on file, what `seki status` tells of any folder)."""
    body, _signature = signing.split(text)
    return _load(body, where, RECORD_FORMAT)


def _opened(raw: dict, where: str) -> dict[str, tuple[str, str]]:
    out = {}
    for h, pair in raw.items():
        if not (isinstance(h, str) and isinstance(pair, list) and len(pair) == 2):
            raise docs.DocumentError(where, N_("opened: expected handle: [id, salt]"))
        if not all(isinstance(x, str) for x in pair) or not _SALT.fullmatch(pair[1]):
            raise docs.DocumentError(
                where, N_("opened: expected handle: [id, salt (64 hex digits)]")
            )
        out[h] = (pair[0], pair[1])
    return out


def reveal_text(
    game: Game, side: str, value: bytes, identity: Identity, now: str, last: tuple[int, str]
) -> str:
    """The side's reveal, naming `last`, the place and hash of the last record it holds."""
    body = {
        "format": REVEAL_FORMAT,
        "game": game.game_id,
        "side": side,
        "secret": value.hex(),
        "written": now,
        "last": {"n": last[0], "hash": last[1]},
    }
    return signing.sign(docs.dump(body), identity)


@dataclass
class Reveal:
    side: str
    secret: bytes
    written: datetime  # its author's clock, signed
    last: tuple[int, str]  # the last record its author held: n, hash


def read_reveal(game: Game, text: str, where: str, commitment: str | None) -> Reveal:
    """A side's revealed secret, checked against the commitment in its join (None: the
    join names none, which no secret matches)."""
    verified = signing.verify(text, game.players.values())
    data = _load(verified.body, where, REVEAL_FORMAT)
    side = docs.field(data, "side", str, where)
    if side not in SIDES or game.players[side].key_id != verified.signer.key_id:
        raise docs.DocumentError(
            where, N_("the reveal is not signed by the side it names"), code=Code.WRONG_SIDE
        )
    value = docs.hex_field(data, "secret", where)
    if secret_commitment(game, side, value) != commitment:
        raise docs.DocumentError(
            where, N_("secret: does not match the commitment in the side's join")
        )
    last = docs.field(data, "last", dict, where)
    n = docs.field(last, "n", int, f"{where}: last")
    digest = docs.field(last, "hash", str, f"{where}: last")
    if n < 1 or not _SALT.fullmatch(digest):
        raise docs.DocumentError(
            f"{where}: last",
            N_("expected a record's n and its hash (64 hex digits)"),
            code=Code.MALFORMED,
        )
    return Reveal(side, value, _written(data, where), (n, digest))


def _written(data: dict, where: str) -> datetime:
    """When its author says a document was written (its clock, signed)."""
    try:
        return clock.parse_time(docs.field(data, "written", str, where), "written")
    except Refusal as exc:
        raise docs.DocumentError(where, "{problem}", problem=exc) from None
