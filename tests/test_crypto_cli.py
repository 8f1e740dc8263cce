"""`seki keys`: exit codes, one-line errors without tracebacks, private files with mode 0600."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sekigahara_pbem.crypto import keys


def seki(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SEKI_DEBUG", "XDG_CONFIG_HOME")}
    env["SEKI_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", "keys", *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def assert_one_line_error(
    result: subprocess.CompletedProcess[str], text: str, status: int = 1
) -> None:
    assert result.returncode == status
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("seki: ")
    assert text in result.stderr
    assert "Traceback" not in result.stderr


def test_new_writes_private_file_and_prints_public_line(tmp_path):
    home = tmp_path / "home"
    result = seki(home, "new", "alice")
    assert result.returncode == 0, result.stderr
    path = home / "alice.identity"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    ident = keys.identity_from_text(path.read_text())
    assert result.stdout == ident.public.line() + "\n"  # the key alone: > alice.pub
    assert ident.public.fingerprint in result.stderr

    shown = seki(home, "show")
    assert shown.returncode == 0
    assert ident.public.line() in shown.stdout
    assert seki(home, "show", "alice").stdout == shown.stdout


def test_new_refuses_to_overwrite(tmp_path):
    assert seki(tmp_path, "new", "alice").returncode == 0
    before = (tmp_path / "alice.identity").read_bytes()
    assert_one_line_error(seki(tmp_path, "new", "alice"), "already exists")
    assert (tmp_path / "alice.identity").read_bytes() == before


def test_dir_option_overrides_home(tmp_path):
    other = tmp_path / "elsewhere"
    assert seki(tmp_path / "home", "new", "bob", "--dir", str(other)).returncode == 0
    assert (other / "bob.identity").exists()
    assert not (tmp_path / "home").exists()
    assert "seki1:bob:" in seki(tmp_path / "home", "show", "--dir", str(other)).stdout


def test_errors_are_one_line(tmp_path):
    assert_one_line_error(seki(tmp_path, "new", "bad:name"), "bad name 'bad:name'")
    assert_one_line_error(seki(tmp_path, "show"), "no identities in")
    assert_one_line_error(seki(tmp_path, "show", "nobody"), "no such identity")
    assert_one_line_error(
        seki(tmp_path, "new", "carl", "--ssh-key", str(tmp_path / "missing")),
        "missing: No such file or directory",
        status=74,  # an OS error: the file cannot be read
    )
    (tmp_path / "broken.identity").write_text("format: seki-identity/1\n")
    assert_one_line_error(seki(tmp_path, "show", "broken"), "broken.identity")


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")
def test_new_accepts_an_openssh_key(tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    home = tmp_path / "home"
    result = seki(home, "new", "dora", "--ssh-key", str(key))
    assert result.returncode == 0, result.stderr
    ident = keys.identity_from_text((home / "dora.identity").read_text())
    assert ident.public.openssh().split() == key.with_suffix(".pub").read_text().split()[:2]

    rsa = tmp_path / "id_rsa"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", str(rsa)], check=True
    )
    assert_one_line_error(seki(home, "new", "eve", "--ssh-key", str(rsa)), "not Ed25519")
    assert not (home / "eve.identity").exists()
