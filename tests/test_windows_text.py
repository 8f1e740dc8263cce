"""What Windows does to text never stops seki (issue 31): a public key saved by Windows
PowerShell 5.1's `>` (UTF-16 with a byte-order mark, CRLF) is read, and a report piped
under a code page that lacks "ō" (cp1252) prints instead of failing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cligame import ok, seki

SEKI = Path(sys.executable).parent / "seki"
DEMO = Path(__file__).parent.parent / "games" / "demo"


def powershell(text: str) -> bytes:
    """What `seki keys new alice > alice.pub` leaves in Windows PowerShell 5.1."""
    return text.replace("\n", "\r\n").encode("utf-16")  # a BOM, then UTF-16 LE


def test_a_public_key_saved_by_powershell_makes_a_game(tmp_path):
    ok(tmp_path, "ref", "keys", "new", "ref")
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_bytes(powershell(ok(tmp_path, name, "keys", "new", name)))
    ok(tmp_path, "ref", "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
       "--key", "ref")  # fmt: skip
    assert (tmp_path / "g" / "game.txt").is_file()


def test_a_file_that_is_no_text_is_refused_naming_it(tmp_path):
    ok(tmp_path, "ref", "keys", "new", "ref")
    (tmp_path / "alice.pub").write_bytes(b"\xff\xfe\x00\xd8")  # a BOM, then half a character
    done = seki(tmp_path, "ref", "game", "new", "g", "--ishida", "alice.pub", "--tokugawa",
                "alice.pub", "--key", "ref")  # fmt: skip
    assert done.exit_code == 1
    assert "alice.pub" in done.output and "not UTF-8 or UTF-16 text" in done.output


def test_a_report_piped_under_a_windows_code_page_prints(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    done = subprocess.run([str(SEKI), "report", str(DEMO), "--seq", "5"], env=env,
                          capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert b"M?ri" in done.stdout  # "Mōri", as the code page can show it
