"""Turn files: a player's signed answer to the decision(s) its last packet asked for.

    format: seki-turn/1
    game: <game id>
    definition: <sha256 of game.txt: the one game of that id (protocol/binding.py)>
    side: ishida | tokugawa
    answers: <seq of the packet answered>
    actions:
      - {type: level, level: limited, cards: [mori-1]}
      - ...

The actions are applied in order, each while it is that side's decision; one file may
carry everything a side decides before the opponent must answer (a whole movement phase).
`answers` makes a stale or replayed file detectable: it must not be older than the packet
that first asked the side's current decision; `definition` makes a file of another game
with the same id (a rematch's resignation) one of another game (protocol/binding.py).

A turn file travels and rests **sealed** (issue 11): the signed file is sealed to the
game's state key (published only by the reveal) inside an envelope that names, in the
clear, only what the records make public — game, side, the packet answered, and whether
it is a file of battle plans or resignation only (`anytime`) or an extension request —
and that is signed by its player (or, for a file that reached the referee unsealed, by
the referee, who seals it at rest). Mail servers, the game repository and spectators
see no order before the reveal; `verify` opens them with it.

    format: seki-sealed-turn/2
    game: <game id>
    definition: <sha256 of game.txt>
    side: ishida | tokugawa
    answers: <seq>
    anytime: false
    extension: false
    sealed: <the signed turn file, padded to a multiple of 1 KiB, in an armored age file
             to the state key (crypto/agefile.py); in /1, sealed with crypto/sealing.py>
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from ..crypto import agefile, sealing, signing
from ..crypto.keys import Identity, PublicKey
from ..refusal import N_, Code
from ..rules.vocab import ANYTIME_ACTIONS
from . import binding, headers
from . import documents as docs
from .game import Definition, tool_version

TURN_FORMAT = "seki-turn/1"
SEALED_FORMAT = "seki-sealed-turn/2"
SEALED_FORMATS = ("seki-sealed-turn/1", SEALED_FORMAT)
MAX_ACTIONS = 200
PAD = 1024
EXTENSION = {"type": "extension"}  # a request for more time (protocol/clock.py)


@dataclass(frozen=True)
class Turn:
    side: str
    answers: int
    actions: list[dict]
    text: str
    tool: str | None = None  # the player's tool version, when the file names it
    bound: bool = True  # names its game's definition (files from before do not)


def body(
    definition: Definition,
    side: str,
    answers: int,
    actions: list[dict],
    components: str | None = None,
) -> str:
    """The unsigned YAML of a turn file for the game of `definition` (bound to it,
    protocol/binding.py), naming this tool's version and the component set its actions were
    chosen with (`components`, a hash; default: the packaged set)."""
    # the component sets' reader and checker: for writing a turn file, not for reading one
    from .component_files import components_hash

    return docs.dump(
        {
            "format": TURN_FORMAT,
            "game": definition.game_id,
            **binding.field(definition),
            "side": side,
            "answers": answers,
            "tool": tool_version(),
            "components": components or components_hash(),
            "actions": actions,
        }
    )


def check_versions(definition: Definition, body_: dict, where: str) -> str | None:
    """A file made with another component set is refused with both versions named (the
    same order would mean something else); the tool version is returned for a note."""
    tool = body_.get("tool")
    components = body_.get("components")
    if components is not None and components != definition.components:
        yours = f" ({tool})" if isinstance(tool, str) else ""
        raise docs.DocumentError(
            f"{where}: components",
            N_(
                "made with component set {theirs}…{tool}, but this game uses {ours}… (see "
                "game.txt's tool line); install that version"
            ),
            code=Code.WRONG_VERSION,
            theirs=str(components)[:16],
            tool=yours,
            ours=definition.components[:16],
        )
    return tool if isinstance(tool, str) else None


def parse_body(definition: Definition, text: str, where: str) -> Turn:
    """Check an (unsigned) turn body's shape and game. A draft may name no definition
    yet (`seki turn sign` adds it); another game's is refused."""
    body_ = docs.load(text, where, TURN_FORMAT, plain=True)
    side, bound = headers.unsigned(definition, body_, where)
    return _turn(definition, body_, side, bound, text, where)


def parse(definition: Definition, text: str, where: str, archived: bool = False) -> Turn:
    """A signed turn file: signed by the player of the side it names, for this game's
    definition. `archived`: a file of the game's own archive, which may be from before
    files were bound (protocol/binding.py); one arriving must be bound."""
    head = headers.signed(definition, text, where, TURN_FORMAT, archived=archived)
    return _turn(definition, head.body, head.side, head.bound, text, where)


def _turn(definition: Definition, body_: dict, side: str, bound: bool, text: str,
          where: str) -> Turn:  # fmt: skip
    """The turn a body holds, once its head is checked: the actions' shape and versions."""
    answers = docs.field(body_, "answers", int, where)
    actions = docs.field(body_, "actions", list, where)
    if not actions or len(actions) > MAX_ACTIONS:
        raise docs.DocumentError(
            f"{where}: actions", N_("expected 1 to {n} actions"), n=MAX_ACTIONS
        )
    for i, action in enumerate(actions):
        if not isinstance(action, dict):
            raise docs.DocumentError(f"{where}: actions[{i}]", N_("expected a mapping with a type"))
        # the type is read before the engine sees the action (a battle plan? an extension?)
        docs.field(action, "type", str, f"{where}: actions[{i}]")
    return Turn(side, answers, actions, text, check_versions(definition, body_, where), bound)


@dataclass(frozen=True)
class Envelope:
    """What a sealed turn file says in the clear, and who signed it."""

    side: str
    answers: int
    anytime: bool
    extension: bool
    signer: PublicKey
    body: dict
    bound: bool = True  # names its game's definition (envelopes from before do not)


def shown(turn: Turn, definition: Definition) -> Envelope:
    """What an envelope would show of a clear turn file (archives from before sealing)."""
    return Envelope(
        turn.side,
        turn.answers,
        all(a.get("type") in ANYTIME_ACTIONS for a in turn.actions),
        turn.actions == [EXTENSION],
        definition.players[turn.side],
        {},
        turn.bound,
    )


def _context(definition: Definition, side: str, answers: int) -> sealing.SealContext:
    return sealing.SealContext(definition.game_id, answers, "referee-turns", f"turn-{side}")


def is_sealed(text: str) -> bool:
    return any(f"format: {f}" in text[:400] for f in SEALED_FORMATS)


def seal(definition: Definition, signed: str, signer: Identity) -> str:
    """The signed turn file `signed`, sealed to the game's state key in an envelope signed
    by `signer` (its player, or the referee sealing it at rest)."""
    turn = parse(definition, signed, "turn file")
    padded = signed.encode("utf-8")
    padded += b"\n" * (-len(padded) % PAD)  # blank lines after the document: ignored
    token = agefile.seal_to_key(padded, definition.state_key)
    body = {
        "format": SEALED_FORMAT,
        "game": definition.game_id,
        **binding.field(definition),
        "side": turn.side,
        "answers": turn.answers,
        "anytime": shown(turn, definition).anytime,
        "extension": shown(turn, definition).extension,
        "sealed": token,
    }
    return signing.sign(docs.dump(body), signer)


def envelope(definition: Definition, text: str, where: str, archived: bool = False) -> Envelope:
    """A sealed turn file's public part, checked: for this game's definition (`archived`:
    or for none, in the game's own archive, as `parse`), signed by the player of its side
    or by the referee."""
    head = headers.signed(
        definition, text, where, SEALED_FORMATS, archived=archived, or_referee=True
    )
    return Envelope(
        head.side,
        docs.field(head.body, "answers", int, where),
        docs.field(head.body, "anytime", bool, where),
        docs.field(head.body, "extension", bool, where),
        head.signer,
        head.body,
        head.bound,
    )


def unseal(
    definition: Definition,
    text: str,
    state_key: X25519PrivateKey,
    where: str,
    archived: bool = False,
) -> str:
    """The signed turn file inside a sealed one, checked against its envelope (both
    bound to this game's definition unless `archived`, as `parse`)."""
    return opened(definition, text, state_key, where, archived)[2]


def opened(
    definition: Definition,
    text: str,
    state_key: X25519PrivateKey,
    where: str,
    archived: bool = False,
) -> tuple[Envelope, Turn, str]:
    """A sealed turn file's envelope, the turn inside and its signed text, each checked
    once: `seki verify` opens every turn file of an archive, and checking a file's
    signatures and reading its YAML twice was a quarter of its time."""
    env = envelope(definition, text, where, archived)
    token = docs.field(env.body, "sealed", str, where)
    if env.body["format"] == SEALED_FORMAT:  # the inner file is checked against the envelope
        plain = agefile.open_with_key(token, state_key, where)
    else:  # sealed before turn files were age files
        context = _context(definition, env.side, env.answers)
        plain = sealing.open_text(docs.unwrap(token), state_key, context)
    inner = plain.decode("utf-8", errors="replace")
    turn = parse(definition, inner, where, archived)
    said = shown(turn, definition)
    if (said.side, said.answers, said.anytime, said.extension) != (
        env.side,
        env.answers,
        env.anytime,
        env.extension,
    ):
        raise docs.DocumentError(where, N_("the envelope does not describe the turn file it seals"))
    return env, turn, inner
