"""The root of the command line (issue 31): `seki --version` says the version the files a
player writes carry, and `seki --lang` sets the language of every command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sekigahara_pbem import __version__

SEKI = Path(sys.executable).parent / "seki"


def test_seki_version_says_the_version_and_stops():
    done = subprocess.run([str(SEKI), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout == f"seki {__version__}\n"


def test_lang_at_the_root_sets_every_commands_language():
    """`seki --lang hu COMMAND` (issue 31): the command and its help speak Hungarian."""
    demo = Path(__file__).parent.parent / "games" / "demo"
    done = subprocess.run([str(SEKI), "--lang", "hu", "verify", str(demo)], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("ellenőrizve: 225 jegyzőkönyv")
    shown = subprocess.run([str(SEKI), "--lang=hu", "verify", "--help"], capture_output=True,
                           text=True, timeout=60)  # fmt: skip
    assert "A játszma könyvtára" in shown.stdout or "könyvtár" in shown.stdout
