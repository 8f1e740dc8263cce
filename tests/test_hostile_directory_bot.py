"""`seki bot turn` with the search run inside a directory it reads (a received archive, a
mail folder) imports nothing from it: the search's second process (bot/rounds.py) starts
as `python -c`, which puts the current directory first on its path, as `python -m` does
for the first process (issue 28, "Code execution"; the same guard as verify's second
process, tests/test_hostile_archive.py). The attack is mounted through the real command."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_hostile_archive import SEKI, _planted
from test_pbem_cli import _started


@pytest.mark.skipif(os.cpu_count() == 1, reason="the second process needs a second core")
@pytest.mark.parametrize("how", ["script", "module"])
def test_the_search_inside_a_planted_directory_imports_nothing_from_it(tmp_path, how):
    _, alice, _ = _started(tmp_path)
    marker = tmp_path.parent / f"{tmp_path.name}-pwned"
    _planted(tmp_path, marker)
    command = [str(SEKI)] if how == "script" else [sys.executable, "-m", "sekigahara_pbem"]
    done = subprocess.run(
        [*command, "bot", "turn", "g/packets/000001-ishida.txt", "--key", "alice",
         "--bot", "search", "--budget", "0.2", "--out", "bid.signed.txt"],
        cwd=tmp_path, env={**os.environ, "SEKI_HOME": str(alice)}, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "bid.signed.txt").exists()
    assert not marker.exists(), marker.read_text()
