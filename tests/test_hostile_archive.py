"""A received archive is hostile: `seki verify` and `seki report` run inside it, or on it,
execute nothing it holds — no module it ships, no program its git config names (issue 28,
"Code execution"). Each test mounts the attack through the real command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SEKI = Path(sys.executable).with_name("seki.exe" if os.name == "nt" else "seki")


def _planted(root: Path, marker: Path) -> None:
    """Modules a Python started in `root` would import before ours: each leaves `marker`."""
    for name in ("multiprocessing", "yaml", "click"):
        (root / name).mkdir()
        (root / name / "__init__.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n", encoding="utf-8"
        )


@pytest.mark.skipif(os.cpu_count() == 1, reason="the second process needs a second core")
@pytest.mark.parametrize("how", ["script", "module"])
def test_verify_inside_a_received_archive_imports_nothing_from_it(demo, tmp_path, how):
    """The packet checks' second process starts as `python -c`, which put the current
    directory first on its path; `python -m` does so for the first process."""
    root, result = demo
    archive = tmp_path / "archive"
    shutil.copytree(root / "game", archive)
    marker = tmp_path / "pwned"
    _planted(archive, marker)
    command = [str(SEKI)] if how == "script" else [sys.executable, "-m", "sekigahara_pbem"]
    done = subprocess.run([*command, "verify", "."], cwd=archive, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"verified {result.records} records" in done.stdout
    assert not marker.exists(), marker.read_text()


def test_report_runs_no_program_the_archives_git_config_names(demo, tmp_path):
    """`seki report --seq N` reads an earlier view from the archive's git history; a
    config asking git to check signatures with a program of its own is not obeyed."""
    root, _ = demo
    archive = tmp_path / "archive"
    shutil.copytree(root / "game", archive)
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil.py"
    evil.write_text(f"open({str(marker)!r}, 'a').write('git ran me\\n')\n", encoding="utf-8")
    program = tmp_path / ("evil.bat" if os.name == "nt" else "evil.sh")
    program.write_text(f'#!/bin/sh\n"{sys.executable}" "{evil}"\n', encoding="utf-8")
    program.chmod(0o755)
    allowed = tmp_path / "allowed"
    allowed.write_text("", encoding="utf-8")
    for key, value in (
        ("log.showSignature", "true"),
        ("gpg.format", "ssh"),
        ("gpg.ssh.program", str(program)),
        ("gpg.ssh.allowedSignersFile", str(allowed)),
        ("core.fsmonitor", str(program)),
        ("core.hooksPath", str(tmp_path)),
    ):
        subprocess.run(["git", "-C", str(archive), "config", key, value], check=True)
    commit = ["git", "-C", str(archive), "cat-file", "commit", "HEAD~3"]
    # the referee's commits are signed: git would check them with the program
    assert b"gpgsig" in subprocess.run(commit, capture_output=True).stdout
    done = subprocess.run([str(SEKI), "report", str(archive), "--seq", "5"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "public report after record 5" in done.stdout
    assert not marker.exists(), marker.read_text()


def _bid_adjudicated_by(root: Path, monkeypatch, module: object, name: str, forged) -> str:
    """Game g made through the commands, and Ishida's bid adjudicated by a referee whose
    `module.name` is `forged` (a modified seki): what the referee said of it."""
    from cligame import signed_bid, started

    from sekigahara_pbem.commands.common import utc_now
    from sekigahara_pbem.crypto.keystore import identity_path, read_identity
    from sekigahara_pbem.referee import adjudication as referee

    started(root)
    bid = signed_bid(root).read_bytes()
    monkeypatch.setattr(module, name, forged)
    identity = read_identity(identity_path(root / "ref", "ref"))
    (outcome,) = referee.adjudicate(root / "g", identity, [("bid", bid)], utc_now())
    monkeypatch.undo()
    assert outcome.accepted, outcome.message
    return outcome.message


def test_a_referee_who_labels_a_record_falsely_does_not_verify(tmp_path, monkeypatch):
    """A record's label is public and signed, and the referee writes it: a label that says
    what the replay did not ("tokugawa resigned" for a bid) fails `seki verify` once the
    secrets are revealed (issue 29: the label was never checked)."""
    from cligame import ok, seki

    from sekigahara_pbem.referee.records import turn

    said = _bid_adjudicated_by(
        tmp_path, monkeypatch, turn, "record_label", lambda *args: "tokugawa resigned"
    )
    assert "tokugawa resigned" in said
    ok(tmp_path, "ref", "reveal", "g", "--key", "ref", "--force")
    done = seki(tmp_path, "ref", "verify", "g")
    assert done.exit_code == 3, done.stdout  # does not verify
    assert "records/000002.txt: label 'tokugawa resigned' does not match the replay" in done.stderr


def test_a_record_holding_a_field_no_record_holds_does_not_verify(tmp_path, monkeypatch):
    """Whatever a referee signs into a record, `seki verify` checks: a field the writer
    never writes (a remark, a second result) is refused, not carried along unchecked, even
    before the reveal."""
    from cligame import seki

    from sekigahara_pbem.protocol import chain

    signed = chain.sign_record

    def remarked(referee_key, seq, body):
        return signed(referee_key, seq, {**body, "remark": "ishida bid too low"})

    _bid_adjudicated_by(tmp_path, monkeypatch, chain, "sign_record", remarked)
    done = seki(tmp_path, "ref", "verify", "g")
    assert done.exit_code == 3, done.stdout  # does not verify
    assert "records/000002.txt: holds fields no record holds: ['remark']" in done.stderr
