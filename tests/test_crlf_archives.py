"""An archive verifies wherever it is checked out (issue 31): Git for Windows' default
core.autocrlf=true turns LF into CRLF in a checkout, and a mail client may do the same to
a document; seki reads line ends one way everywhere (protocol/documents.decode), and every
new archive tells git to keep its files byte for byte (.gitattributes)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from sekigahara_pbem.protocol.store import GITATTRIBUTES
from sekigahara_pbem.referee.verify import verify

DEMO = Path(__file__).parent.parent / "games" / "demo"


def git(*args: str, cwd: Path | None = None) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def autocrlf_clone(source: Path, into: Path) -> Path:
    """`source` committed in a repository of its own, cloned as Git for Windows does."""
    git("init", "-q", str(source))
    git("-c", "user.name=t", "-c", "user.email=t@t", "-C", str(source), "add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "-C", str(source), "commit", "-qm", "a")
    git("clone", "-q", "-c", "core.autocrlf=true", str(source), str(into))
    return into


def test_an_archive_checked_out_with_crlf_line_ends_verifies(tmp_path):
    """The archive of a game made before archives carried .gitattributes, cloned with
    autocrlf: every text file comes out with CRLF line ends, and it still verifies."""
    old = tmp_path / "old"
    shutil.copytree(DEMO, old, ignore=shutil.ignore_patterns(".gitattributes", ".git"))
    clone = autocrlf_clone(old, tmp_path / "clone")
    assert b"\r\n" in (clone / "records" / "000002.txt").read_bytes()
    assert verify(clone).records == 225


def test_a_new_archive_keeps_its_bytes_in_an_autocrlf_clone(tmp_path):
    """The repository's own games/demo carries the attributes every new archive gets: a
    clone with autocrlf keeps LF."""
    assert (DEMO / ".gitattributes").read_text() == GITATTRIBUTES
    mine = tmp_path / "mine"
    shutil.copytree(DEMO, mine, ignore=shutil.ignore_patterns(".git"))
    clone = autocrlf_clone(mine, tmp_path / "clone")
    for name in ("game.txt", "records/000002.txt", "joins/ishida.txt"):
        assert b"\r\n" not in (clone / name).read_bytes(), name
    assert verify(clone).records == 225


def test_a_game_made_by_the_referee_carries_the_attributes(tmp_path):
    from cligame import started

    started(tmp_path)
    assert (tmp_path / "g" / ".gitattributes").read_text() == GITATTRIBUTES
