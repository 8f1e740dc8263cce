"""Turn files: a player's signed answer to the decision(s) its last packet asked for.

    format: seki-turn/1
    game: <game id>
    side: ishida | tokugawa
    answers: <seq of the packet answered>
    actions:
      - {type: level, level: limited, cards: [mori-1]}
      - ...

The actions are applied in order, each while it is that side's decision; one file may
carry everything a side decides before the opponent must answer (a whole movement phase).
`answers` makes a stale or replayed file detectable: it must not be older than the packet
that first asked the side's current decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..crypto import signing
from ..rules.vocab import SIDES
from . import documents as docs
from .game import Definition

TURN_FORMAT = "seki-turn/1"
MAX_ACTIONS = 200


@dataclass(frozen=True)
class Turn:
    side: str
    answers: int
    actions: list[dict]
    text: str


def body(game_id: str, side: str, answers: int, actions: list[dict]) -> str:
    """The unsigned YAML of a turn file."""
    return docs.dump(
        {
            "format": TURN_FORMAT,
            "game": game_id,
            "side": side,
            "answers": answers,
            "actions": actions,
        }
    )


def parse_body(definition: Definition, text: str, where: str) -> Turn:
    """Check an (unsigned) turn body's shape."""
    body_ = docs.load(text, where, TURN_FORMAT)
    if docs.field(body_, "game", str, where) != definition.game_id:
        raise docs.DocumentError(f"{where}: game", f"not for game {definition.game_id}")
    side = docs.field(body_, "side", str, where)
    if side not in SIDES:
        raise docs.DocumentError(f"{where}: side", f"expected one of {', '.join(SIDES)}")
    answers = docs.field(body_, "answers", int, where)
    actions = docs.field(body_, "actions", list, where)
    if not actions or len(actions) > MAX_ACTIONS:
        raise docs.DocumentError(f"{where}: actions", f"expected 1 to {MAX_ACTIONS} actions")
    for i, action in enumerate(actions):
        if not isinstance(action, dict):
            raise docs.DocumentError(f"{where}: actions[{i}]", "expected a mapping with a type")
    return Turn(side, answers, actions, text)


def parse(definition: Definition, text: str, where: str) -> Turn:
    """A signed turn file: signed by the player of the side it names."""
    verified = signing.verify(text, definition.players.values())
    turn = parse_body(definition, verified.body, where)
    if definition.players[turn.side].key_id != verified.signer.key_id:
        raise docs.DocumentError(
            f"{where}: side", f"signed by {verified.signer.name}, who does not play {turn.side}"
        )
    return Turn(turn.side, turn.answers, turn.actions, text)
