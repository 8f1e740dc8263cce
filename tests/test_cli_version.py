"""`seki --version` says the version the files a player writes carry (issue 31)."""

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
