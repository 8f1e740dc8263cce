"""A start that tests share: what `build(root)` makes through the real commands is made
once per test process, then copied into each test's own directory. Setting a game up
through the commands (keys, game new, joins, seeds) takes seconds of processes and git;
a dozen tests that each begin from the same start spent a minute on it. The copy is the
same files, modes and times; each test then works on its own."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


def copied(build: Callable[[Path], None], root: Path) -> None:
    """`root` holds what `build` makes, built once in this process."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(_built(build), root, symlinks=True, dirs_exist_ok=True)


@functools.cache
def _built(build: Callable[[Path], None]) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="seki-snapshot-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    build(folder)
    return folder
