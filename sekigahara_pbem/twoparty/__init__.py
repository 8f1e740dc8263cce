"""Two-party games (docs/two-party.md): no referee; each side keeps its own secrets and
computes every step of the engine its own knowledge allows."""

from pathlib import Path

GAME_FORMAT = "seki-2p-game/1"


def is_two_party(root: Path) -> bool:
    """Whether a directory holds a two-party game (its game.txt says so). Here, not in
    side.py: every `seki verify`, `reveal` and `status` asks it, and importing the
    two-party stack costs a referee's game 20 ms. Only the head of the file is read, as
    bytes: whatever the rest holds (gigabytes, or no text) is for the game's own reader to
    refuse."""
    if not (root / "game.txt").is_file():
        return False
    with open(root / "game.txt", "rb") as f:
        head = f.read(4000)
    return f"format: {GAME_FORMAT}".encode() in head
