"""The game definition (who plays, with which keys, components and options) and the
referee's secrets for one game (its seed and the key its full states are sealed to).

The state key is a fresh X25519 key per game, so that `reveal` can publish it after the
game without exposing the referee's own identity key.
"""

from __future__ import annotations

import base64
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from .. import __version__
from ..crypto import sealing, signing, sshsig
from ..crypto.keys import NAME_PATTERN, Identity, PublicKey, parse_public_line
from ..crypto.seeds import new_seed, seed_commitment
from ..refusal import N_, Code, Refusal, quoted
from ..rules.state import game_options
from ..rules.vocab import SIDES
from . import clock as clocks
from . import documents as docs
from .commitments import KEY_BYTES
from .store import GameDir, git_commit, git_init, write_atomic

GAME_FORMAT = "seki-game/1"
SECRETS_FORMAT = "seki-referee-secrets/1"
REFEREE = "referee"
ALLOWED_SIGNERS = "allowed_signers"  # OpenSSH's file of the game's keys, for ssh-keygen -Y verify
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9.-]{1,253}")
LANGUAGE = re.compile(r"[a-z]{2,3}")


def tool_version() -> str:
    """The version written into packets and turn files. From the package itself: reading
    the installed metadata (importlib.metadata) costs every command about 15 ms."""
    return f"sekigahara-pbem {__version__}"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


_KEY_B64 = re.compile(r"[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]")  # 32 bytes, unpadded


def _key_field(body: dict, key: str, where: str) -> bytes:
    """A 32-byte key written in unpadded urlsafe base64, as `_b64` writes it."""
    text = docs.field(body, key, str, where)
    if not _KEY_B64.fullmatch(text):
        raise docs.DocumentError(f"{where}: {key}", N_("expected {n} bytes in base64"), n=32)
    return base64.urlsafe_b64decode(text + "=")


@dataclass(frozen=True)
class Definition:
    game_id: str
    components: str
    options: dict
    referee: PublicKey
    players: dict[str, PublicKey]
    state_key: X25519PublicKey
    referee_seed: str  # commitment
    text: str  # the signed document as stored
    deadlines: clocks.Settings | None = None
    addresses: dict[str, str] | None = None  # side or "referee" -> mail address
    languages: dict[str, str] | None = None  # side -> the language its robot mail is in

    @property
    def hash(self) -> str:
        return docs.sha256(self.text)

    def side_of(self, key: PublicKey) -> str | None:
        return next((s for s, k in self.players.items() if k.key_id == key.key_id), None)


@dataclass(frozen=True)
class Secrets:
    seed: bytes
    state_key: X25519PrivateKey
    commit_key: bytes  # K of protocol/commitments.py


def check_game_id(game_id: str) -> str:
    if not NAME_PATTERN.fullmatch(game_id):
        raise Refusal(
            N_("game id {id}: use letters, digits, '.', '_' or '-' (max 64)"), id=quoted(game_id)
        )
    return game_id


def check_address(text: str, where: str | None) -> str:
    """A bare mail address (no display name, no header injection). email.utils is
    imported here: only a game with addresses needs it, and it costs 9 ms to import."""
    from email.utils import parseaddr

    name, address = parseaddr(text)
    if name or address != text or not ADDRESS.fullmatch(address):
        raise Refusal(
            N_("{text} is not a mail address like name@example.org"),
            at=where,
            text=quoted(text),
        )
    return address


@dataclass(frozen=True)
class Terms:
    """What a game may set beside its players and options: the deadlines (protocol/
    clock.py; none: no deadlines), mail addresses and the languages of the robot's mail,
    by who (ishida, tokugawa, referee), and the directory of the component set when it is
    not the packaged one."""

    deadlines: clocks.Settings | None = None
    addresses: dict[str, str] = field(default_factory=dict)
    languages: dict[str, str] = field(default_factory=dict)
    component_dir: Path | None = None


def create(
    root: Path,
    game_id: str,
    referee: Identity,
    players: dict[str, PublicKey],
    components: str,
    options: dict,
    now: str,
    terms: Terms = Terms(),  # noqa: B008 - frozen: one shared default is safe
) -> Definition:
    """Write game.txt, the sealed referee secrets and the game's copy of its component
    set, start the git archive. `components` is the hash of the set in
    `terms.component_dir` (default: the packaged set), which the directory carries
    (component_files.carry)."""
    # the component sets' reader and checker: for making a game, not for reading one
    from .component_files import carry, set_named

    deadlines, addresses, languages = terms.deadlines, terms.addresses, terms.languages
    check_game_id(game_id)
    carried = set_named(components, game_id, terms.component_dir)
    _languages(languages, "--lang", shipped_only=True)
    for who, address in addresses.items():
        if who not in (*SIDES, REFEREE):
            raise Refusal(
                N_("mail address for {who}: expected ishida, tokugawa or referee"), who=quoted(who)
            )
        try:
            check_address(address, None)
        except Refusal as exc:
            raise Refusal(N_("mail address for {who}: {reason}"), who=who, reason=exc) from None
    if root.exists() and any(root.iterdir()):
        raise Refusal(N_("{path} exists and is not empty"), path=root)
    keys = [referee.public.key_id, *(players[s].key_id for s in SIDES)]
    if len(set(keys)) != len(keys):
        raise Refusal(N_("the referee and the two players need three different keys"))
    options = game_options(options)  # a Malformed naming the option, as setup would
    seed = new_seed()
    state_key = X25519PrivateKey.generate()
    commit_key = os.urandom(KEY_BYTES)
    body = {
        "format": GAME_FORMAT,
        "game": game_id,
        "created": now,
        "tool": tool_version(),
        "components": components,
        "options": options,
        "referee": referee.public.line(),
        "players": {s: players[s].line() for s in SIDES},
        "state_key": _b64(state_key.public_key().public_bytes_raw()),
        "referee_seed": seed_commitment(seed, REFEREE),
    }
    if deadlines is not None:
        body["deadlines"] = deadlines.as_dict()
    if addresses:
        body["mail"] = dict(sorted(addresses.items()))
    if languages:
        body["languages"] = dict(sorted(languages.items()))
    gd = GameDir(root)
    root.mkdir(parents=True, exist_ok=True)
    git_init(root)
    text = signing.sign(docs.dump(body), referee)
    write_atomic(gd.definition, text)
    write_atomic(gd.secrets, _seal_secrets(game_id, referee, Secrets(seed, state_key, commit_key)))
    definition = parse(text, gd.definition.name)
    write_atomic(root / ALLOWED_SIGNERS, allowed_signers(definition))
    carry(root, carried)
    git_commit(root, f"game {game_id}: created", referee)
    return definition


def allowed_signers(definition: Definition, git: bool = True) -> str:
    """OpenSSH's allowed_signers file for the game's keys (ssh-keygen(1)): with it,
    `ssh-keygen -Y verify` checks any of the game's documents without seki, and git the
    referee's signed commits (docs/crypto.md, "Check it without seki"). Games made before
    commits were signed have the file without `git` (`git=False`)."""
    documents = signing.NAMESPACE.format(kind="*")
    lines = [
        sshsig.allowed_signers_line(
            k.name,
            k.signing,
            [documents, "git"] if git and k is definition.referee else [documents],
        )
        for k in [definition.referee, *(definition.players[s] for s in SIDES)]
    ]
    return "\n".join(lines) + "\n"


def secrets_text(secrets: Secrets) -> str:
    """The referee's secrets as YAML: sealed during the game, published by `reveal`."""
    body = {
        "format": SECRETS_FORMAT,
        "seed": secrets.seed.hex(),
        "state_key": _b64(secrets.state_key.private_bytes_raw()),
        "commit_key": secrets.commit_key.hex(),
    }
    return docs.dump(body)


def _seal_secrets(game_id: str, referee: Identity, secrets: Secrets) -> str:
    plain = secrets_text(secrets)
    context = sealing.SealContext(game_id, 0, referee.public.name, "referee-secrets")
    token = sealing.seal_text(plain.encode("utf-8"), referee.public.encryption, context)
    return docs.wrap(token)


def parse(text: str, where: str) -> Definition:
    """Check a game definition: signed by the referee it names, every field in shape."""
    body_text, _ = signing.split(text)
    body = docs.load(body_text, where, GAME_FORMAT)
    try:
        referee = parse_public_line(docs.field(body, "referee", str, where))
        players_raw = docs.field(body, "players", dict, where)
        players = {s: parse_public_line(str(players_raw.get(s))) for s in SIDES}
    except Refusal as exc:  # a key line's refusal, after the file's name
        raise docs.DocumentError(where, "{reason}", reason=exc) from None
    state_key = X25519PublicKey.from_public_bytes(_key_field(body, "state_key", where))
    deadlines = clocks.parse_settings(body["deadlines"], where) if "deadlines" in body else None
    addresses = _addresses(body.get("mail"), where)
    languages = _languages(body.get("languages"), f"{where}: languages")
    signing.verify(text, [referee])
    return Definition(
        game_id=check_game_id(docs.field(body, "game", str, where)),
        components=docs.field(body, "components", str, where),
        options=docs.field(body, "options", dict, where),
        referee=referee,
        players=players,
        state_key=state_key,
        referee_seed=docs.field(body, "referee_seed", str, where),
        text=text,
        deadlines=deadlines,
        addresses=addresses,
        languages=languages,
    )


def _languages(raw: object, where: str, shipped_only: bool = False) -> dict[str, str] | None:
    """Side -> language code. A game.txt may name a language this copy of seki does not
    ship (its robot then writes English); a new game may only name shipped ones."""
    from ..i18n import available

    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise Refusal(N_("expected a mapping of side to language, e.g. ishida: hu"), at=where)
    for who, lang in raw.items():
        if who not in SIDES or not isinstance(lang, str) or not LANGUAGE.fullmatch(lang):
            raise Refusal(
                N_("expected ishida or tokugawa and a code like hu"),
                at=f"{where}: {who!r}",
            )
        if shipped_only and lang not in available():
            raise Refusal(
                N_("no '{lang}' translation (available: {shipped})"),
                at=where,
                lang=lang,
                shipped=", ".join(available()),
            )
    return dict(raw)


def _addresses(raw: object, where: str) -> dict[str, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise Refusal(N_("expected a mapping of side to address"), at=f"{where}: mail")
    out = {}
    for who, address in raw.items():
        if who not in (*SIDES, REFEREE) or not isinstance(address, str):
            raise Refusal(N_("expected ishida, tokugawa or referee"), at=f"{where}: mail: {who!r}")
        out[who] = check_address(address, f"{where}: mail: {who}")
    return out


def load(gd: GameDir) -> Definition:
    """The game directory's definition, read under the documents' size cap: the directory
    may be a received archive, whose game.txt may be gigabytes or not text at all."""
    gd.require()
    return parse(docs.read_capped(gd.definition), str(gd.definition))


def open_secrets(gd: GameDir, definition: Definition, referee: Identity) -> Secrets:
    """The referee's seed and state key; only the referee's identity opens them."""
    if referee.public.key_id != definition.referee.key_id:
        raise Refusal(
            N_("the key {name} is not this game's referee key"),
            code=Code.BAD_KEY,
            name=quoted(referee.public.name),
        )
    context = sealing.SealContext(definition.game_id, 0, referee.public.name, "referee-secrets")
    plain = sealing.open_text(docs.read_capped(gd.secrets), referee.encryption, context)
    return parse_secrets(plain.decode("utf-8"), str(gd.secrets))


def parse_secrets(text: str, where: str) -> Secrets:
    body = docs.load(text, where, SECRETS_FORMAT)
    seed = docs.hex_field(body, "seed", where)
    key = X25519PrivateKey.from_private_bytes(_key_field(body, "state_key", where))
    commit_key = docs.hex_field(body, "commit_key", where, KEY_BYTES)
    return Secrets(seed, key, commit_key)
