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

from ..component_files import components_hash
from ..crypto import signing
from ..rules.vocab import SIDES
from . import documents as docs
from .game import Definition, tool_version

TURN_FORMAT = "seki-turn/1"
MAX_ACTIONS = 200


@dataclass(frozen=True)
class Turn:
    side: str
    answers: int
    actions: list[dict]
    text: str
    tool: str | None = None  # the player's tool version, when the file names it


def body(game_id: str, side: str, answers: int, actions: list[dict]) -> str:
    """The unsigned YAML of a turn file, naming this tool's version and component set."""
    return docs.dump(
        {
            "format": TURN_FORMAT,
            "game": game_id,
            "side": side,
            "answers": answers,
            "tool": tool_version(),
            "components": components_hash(),
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
            f"made with component set {str(components)[:16]}…{yours}, but this game uses "
            f"{definition.components[:16]}… (see game.txt's tool line); install that version",
        )
    return tool if isinstance(tool, str) else None


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
    return Turn(side, answers, actions, text, check_versions(definition, body_, where))


def parse(definition: Definition, text: str, where: str) -> Turn:
    """A signed turn file: signed by the player of the side it names."""
    verified = signing.verify(text, definition.players.values())
    turn = parse_body(definition, verified.body, where)
    if definition.players[turn.side].key_id != verified.signer.key_id:
        raise docs.DocumentError(
            f"{where}: side", f"signed by {verified.signer.name}, who does not play {turn.side}"
        )
    return Turn(turn.side, turn.answers, turn.actions, text, turn.tool)
