"""What the referee sent a player, opened with the player's key: a packet (its game the
definition saved at `seki join`, the referee's signature checked, the player's section
opened) or a sealed note from the referee's robot. Shared by the commands that read a
packet and by the turn that answers one (play/packet_turn.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..refusal import N_, Code, Refusal

if TYPE_CHECKING:
    from ..crypto.keys import Identity
    from ..protocol.game import Definition
    from ..protocol.packets import Packet


def open_own_packet(path: Path, identity: Identity) -> tuple[Definition, Packet]:
    """A packet sent to you: the game it names (saved when you joined), the referee's
    signature checked, your section opened."""
    from ..protocol import documents, packets
    from ..protocol.component_files import components_hash

    text = documents.read_saved(path)
    definition = saved_definition(documents.peek_game(text, str(path)))
    if definition.components != components_hash():
        raise Refusal(
            N_(
                "game {game} uses component set {theirs}…, this tool has {ours}…: install the "
                "version game.txt names"
            ),
            code=Code.WRONG_VERSION,
            game=definition.game_id,
            theirs=definition.components[:16],
            ours=components_hash()[:16],
        )
    return definition, packets.open_packet(definition, text, identity, str(path))


def open_own_note(path: Path, identity: Identity) -> list[str] | None:
    """The reasons in a sealed note the referee's robot sent you; None if the file is not
    a note (protocol/notes.py)."""
    from ..protocol import documents, notes

    text = documents.read_saved(path)
    if not notes.is_note(text):
        return None
    definition = saved_definition(documents.peek_game(text, str(path)))
    return notes.open_note(definition, text, identity, str(path))


def saved_definition(game_id: str) -> Definition:
    """The game definition a player saved when joining (`seki join`)."""
    from ..crypto.keydir import default_dir
    from ..protocol import game

    path = default_dir() / "games" / f"{game.check_game_id(game_id)}.txt"
    if not path.is_file():
        raise Refusal(
            N_("game {game} is unknown here: join it first (seki join game.txt)"),
            code=Code.WRONG_GAME,
            game=game_id,
        )
    return game.parse(path.read_text(encoding="utf-8"), str(path))
