"""The trees seki commits (protocol/store.py `_tree`): a file is hashed again only when
its size, times or inode changed since seki last hashed it (.git/seki-hashed.json), so
every commit must still hold every file exactly as it is on disk, whatever that record
says — a changed file, one removed, a link, a record unreadable or forged."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.protocol.store import git_commit, git_init, write_atomic

REFEREE = generate("referee")


def _tree_of_disk(root: Path) -> str:
    """The tree git itself makes of the directory as it is, in a scratch index."""
    env = {**os.environ, "GIT_INDEX_FILE": str(root / ".git" / "check-index")}
    run = {"cwd": root, "env": env, "check": True, "capture_output": True}
    subprocess.run(["git", "add", "-A", "--", "."], **run)  # type: ignore[call-overload]
    tree = subprocess.run(["git", "write-tree"], **run).stdout.decode().strip()  # type: ignore[call-overload]
    (root / ".git" / "check-index").unlink()
    return tree


def _head_tree(root: Path, what: str = "HEAD^{tree}") -> str:
    done = subprocess.run(["git", "rev-parse", what], cwd=root, capture_output=True)
    return done.stdout.decode().strip()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "g"
    root.mkdir()
    git_init(root)
    for i in range(20):
        write_atomic(root / "records" / f"{i:06d}.txt", f"record {i}\n")
    git_commit(root, "first", REFEREE)
    assert _head_tree(root) == _tree_of_disk(root)
    return root


def test_each_commit_holds_the_files_as_they_are_on_disk(game):
    write_atomic(game / "records" / "000003.txt", "RECORD 3\n")  # the same size, new bytes
    (game / "records" / "000004.txt").unlink()
    write_atomic(game / "public" / "state.yaml", "week: 2\n")
    git_commit(game, "second", REFEREE)
    assert _head_tree(game) == _tree_of_disk(game)
    if os.name != "nt":
        (game / "link").symlink_to("records/000001.txt")
        git_commit(game, "third", REFEREE)
        assert _head_tree(game) == _tree_of_disk(game)


def test_a_file_rewritten_in_place_is_hashed_again(game):
    """Not by seki's own writes (they rename a new file into place), but by hand: the same
    size, its time set back, so only its inode or change time tells."""
    path = game / "records" / "000005.txt"
    before = path.stat()
    path.write_text("RECORD 5\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    git_commit(game, "by hand", REFEREE)
    assert _head_tree(game) == _tree_of_disk(game)


@pytest.mark.parametrize(
    "kept",
    ["not json", "[]", '{"files": 3, "tree": "x", "listing": "y"}',
     '{"files": {"records/000001.txt": [[1, 2, 3, 4], "../../etc"]}, "tree": "", "listing": ""}'],
)  # fmt: skip
def test_an_unreadable_or_forged_record_of_hashes_is_taken_as_nothing_known(game, kept):
    (game / ".git" / "seki-hashed.json").write_text(kept)
    write_atomic(game / "records" / "000001.txt", "changed\n")
    git_commit(game, "again", REFEREE)
    assert _head_tree(game) == _tree_of_disk(game)


def test_nothing_changed_makes_no_commit(game):
    head = _head_tree(game, "HEAD")
    git_commit(game, "nothing", REFEREE)
    assert _head_tree(game, "HEAD") == head
    data = json.loads((game / ".git" / "seki-hashed.json").read_text())
    assert len(data["files"]) == 22  # the records, .gitignore and .gitattributes
