"""The player's own settings: `config.toml` in the key directory, e.g.

    lang = "hu"        # the language of reports and questions (i18n.py)
    board = "web"      # seki play and seki solo answer in the browser (web/), not the terminal
    key = "alice"      # the key a command uses when --key is not given (commands/common.py)

A broken or missing file is no setting at all: the command's options and the environment
decide then, and nothing fails for want of a preference."""

from __future__ import annotations

import tomllib
from pathlib import Path

SETTINGS_FILE = "config.toml"
BOARDS = ("web", "terminal")


def read(directory: Path) -> dict:
    """The settings in `directory`'s config.toml ({} if absent or broken)."""
    path = directory / SETTINGS_FILE
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_bytes().decode("utf-8", errors="replace"))
    except tomllib.TOMLDecodeError:  # a broken file: the other places decide
        return {}


def board(directory: Path) -> str | None:
    """Where the player answers by default: "web" or "terminal" (None: not set)."""
    value = read(directory).get("board")
    return value if value in BOARDS else None


def key(directory: Path) -> object:
    """The key `key = "NAME"` names, as written (None: not set); commands.common.chosen_key
    checks that the key directory holds it."""
    return read(directory).get("key")
