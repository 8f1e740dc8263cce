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
    for name in ("multiprocessing", "yaml", "typer"):
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


def test_a_referee_who_labels_a_record_falsely_does_not_verify(tmp_path, monkeypatch):
    """A record's label is public and signed, and the referee writes it: a label that says
    what the replay did not ("tokugawa resigned" for a bid) fails `seki verify` once the
    secrets are revealed (issue 29: the label was never checked)."""
    from test_pbem_cli import _started, ok, seki

    from sekigahara_pbem.commands.common import utc_now
    from sekigahara_pbem.crypto.keystore import identity_path, read_identity
    from sekigahara_pbem.pbem import referee
    from sekigahara_pbem.pbem.records import turn

    ref, alice, _ = _started(tmp_path)
    packet = "g/packets/000001-ishida.txt"
    shown = ok(seki(alice, "view", packet, "--key", "alice", cwd=tmp_path))
    card = shown.split("{type: bid, card: ")[1].split("}")[0]
    (tmp_path / "bid.yaml").write_text(
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
        f"actions:\n  - {{type: bid, card: {card}}}\n"
    )
    ok(seki(alice, "turn", "sign", "bid.yaml", "--packet", packet, "--key", "alice",
            cwd=tmp_path))  # fmt: skip
    monkeypatch.setattr(turn, "record_label", lambda *args: "tokugawa resigned")
    signed = (tmp_path / "bid.signed.txt").read_bytes()
    identity = read_identity(identity_path(ref, "ref"))
    (outcome,) = referee.adjudicate(tmp_path / "g", identity, [("bid", signed)], utc_now())
    assert outcome.accepted and "tokugawa resigned" in outcome.message
    monkeypatch.undo()
    ok(seki(ref, "reveal", "g", "--key", "ref", "--force", cwd=tmp_path))
    done = seki(ref, "verify", "g", cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert "records/000002.txt: label 'tokugawa resigned' does not match the replay" in done.stderr


def test_a_record_holding_a_field_no_record_holds_does_not_verify(tmp_path, monkeypatch):
    """Whatever a referee signs into a record, `seki verify` checks: a field the writer
    never writes (a remark, a second result) is refused, not carried along unchecked, even
    before the reveal."""
    from test_pbem_cli import _started, ok, seki

    from sekigahara_pbem.commands.common import utc_now
    from sekigahara_pbem.crypto.keystore import identity_path, read_identity
    from sekigahara_pbem.pbem import chain, referee

    ref, alice, _ = _started(tmp_path)
    packet = "g/packets/000001-ishida.txt"
    shown = ok(seki(alice, "view", packet, "--key", "alice", cwd=tmp_path))
    card = shown.split("{type: bid, card: ")[1].split("}")[0]
    (tmp_path / "bid.yaml").write_text(
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
        f"actions:\n  - {{type: bid, card: {card}}}\n"
    )
    ok(seki(alice, "turn", "sign", "bid.yaml", "--packet", packet, "--key", "alice",
            cwd=tmp_path))  # fmt: skip
    signed = chain.sign_record

    def remarked(referee_key, seq, body):
        return signed(referee_key, seq, {**body, "remark": "ishida bid too low"})

    monkeypatch.setattr(chain, "sign_record", remarked)
    identity = read_identity(identity_path(ref, "ref"))
    bid = (tmp_path / "bid.signed.txt").read_bytes()
    (outcome,) = referee.adjudicate(tmp_path / "g", identity, [("bid", bid)], utc_now())
    assert outcome.accepted, outcome.message
    monkeypatch.undo()
    done = seki(ref, "verify", "g", cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert "records/000002.txt: holds fields no record holds: ['remark']" in done.stderr
