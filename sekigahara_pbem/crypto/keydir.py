"""Where a person's key directory is (crypto/keystore.py holds what is in it). Apart,
because every command asks it (the reader's language is in its config.toml) and the key
store imports the age and key libraries: 15 ms a command that reads no key need not pay.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def default_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user key directory (keystore.py's module docstring): $SEKI_HOME; else
    $XDG_CONFIG_HOME/seki; else ~/.config/seki where it exists already (where every
    version before put it, on every system: nobody's keys move); else the platform's
    place for a user's settings (platformdirs): ~/.config/seki on Linux, ~/Library/
    Application Support/seki on macOS, %APPDATA%\\seki on Windows."""
    env = os.environ if environ is None else environ
    if env.get("SEKI_HOME"):
        return Path(env["SEKI_HOME"])
    if env.get("XDG_CONFIG_HOME"):
        return Path(env["XDG_CONFIG_HOME"]) / "seki"
    earlier = Path.home() / ".config" / "seki"
    if earlier.is_dir():
        return earlier
    from platformdirs import user_config_path

    return user_config_path("seki", appauthor=False, roaming=True)
