"""Players of an earlier revision of seki's bot package (`bot_strength.py --against
KIND@REV`): a change to a player is measured against the player just before it, from the
repository alone, the way every change since the frozen baseline was kept or dropped
(docs/bot.md, "Levels").

The package at REV (`git archive` of the repository the imported `sekigahara_pbem` is
in) is unpacked for the length of the run beside that package's own bot, as
`sekigahara_pbem/bot_at_<commit>`, so that its relative imports reach the same engine (the
rules and views both players are shown); it is removed when the run ends. A player of a
revision whose bot needs engine functions this tree no longer has fails on import, naming
them: compare nearby revisions.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import io
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

# the package this run imports (a worktree's, with PYTHONPATH) and the repository it is in
PACKAGE = Path(importlib.import_module("sekigahara_pbem").__file__ or "").resolve().parent
ROOT = PACKAGE.parent
PREFIX = "bot_at_"  # .gitignore keeps such copies out of the repository


def split(kind: str) -> tuple[str, str | None]:
    """'heuristic@b2ddb39' -> ('heuristic', 'b2ddb39'); a kind alone has no revision."""
    name, _, rev = kind.partition("@")
    return name, rev or None


def unpack(rev: str) -> str:
    """The module name of the bot package at `rev` (a commit, tag or branch of this
    repository), unpacked beside this tree's for the rest of the run."""
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if found.returncode != 0:
        raise SystemExit(f"--against ...@{rev}: no such commit in {ROOT}")
    commit = found.stdout.strip()[:12]
    target = PACKAGE / f"{PREFIX}{commit}"
    if not target.exists():
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "sekigahara_pbem/bot"],
            capture_output=True, check=True,
        ).stdout  # fmt: skip
        with tempfile.TemporaryDirectory(prefix=PREFIX, dir=PACKAGE) as tmp:
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(tmp, filter="data")
            (Path(tmp) / "sekigahara_pbem" / "bot").rename(target)
        atexit.register(shutil.rmtree, target, True)
    return f"sekigahara_pbem.{target.name}"


def make_player(kind: str, rev: str, *args: Any, **options: Any) -> Any:
    """A player of `kind` as the bot package at `rev` makes it (its `make_player`, given
    this tree's arguments)."""
    bot = importlib.import_module(unpack(rev))
    return bot.make_player(kind, *args, **options)


def main() -> None:
    """One game of this tree's heuristic against the heuristic of REV (default HEAD, as
    CI's `--quick` run plays it, so the unpacking cannot rot unnoticed)."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("rev", nargs="?", default="HEAD", help="the earlier revision")
    parser.add_argument("--quick", action="store_true", help="CI's run (the same game)")
    args = parser.parse_args()
    from sekigahara_pbem.bot import make_player as this_tree
    from sekigahara_pbem.bot.match import play
    from sekigahara_pbem.protocol.component_files import load_components

    comp = load_components()
    players = {
        "ishida": this_tree("heuristic", comp, {}, "revision-ishida", False),
        "tokugawa": make_player("heuristic", args.rev, comp, {}, "revision-tokugawa", False),
    }
    game = play(comp, "0" * 32, players)
    result = game.state["result"]
    print(
        f"this tree's heuristic (ishida) against {unpack(args.rev)} (tokugawa): "
        f"{result['winner']} won in week {game.state['week']}, {game.turn_files} turn files"
    )


if __name__ == "__main__":
    main()
