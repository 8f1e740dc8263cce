"""One meaning per exit status (issue 31; refusal.ExitStatus, docs/cli.md): the real
`seki`, made to end each way, ends with that way's status and says why on standard
error. 70 (a bug) is tests/test_internal_errors.py's, 75 (mail kept to send again)
tests/test_mail.py's."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from sekigahara_pbem.refusal import ExitStatus

SEKI = Path(sys.executable).parent / "seki"
DEMO = Path(__file__).parent.parent / "games" / "demo"


def run(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {"SEKI_HOME": str(home), "LANG": "C", "PATH": "/usr/bin:/bin"}
    return subprocess.run([str(SEKI), *args], capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip


def _said(done: subprocess.CompletedProcess, status: ExitStatus) -> str:
    """The one line a run that failed says, on standard error."""
    assert done.returncode == status, (done.returncode, done.stderr)
    assert done.stderr.startswith("seki: ") and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def test_done_refused_and_usage(tmp_path):
    assert run("verify", str(DEMO), home=tmp_path).returncode == ExitStatus.DONE
    assert "no game.txt" in _said(run("status", "nowhere", home=tmp_path), ExitStatus.REFUSED)
    assert "no identities" in _said(run("keys", "show", home=tmp_path), ExitStatus.REFUSED)
    usage = run("verify", home=tmp_path)  # click's own: a missing argument
    assert usage.returncode == ExitStatus.USAGE and "Missing argument" in usage.stderr
    assert run("status", "--bogus", home=tmp_path).returncode == ExitStatus.USAGE


def test_an_archive_that_does_not_verify(tmp_path):
    broken = tmp_path / "demo"
    shutil.copytree(DEMO, broken, ignore=shutil.ignore_patterns(".git"))
    record = broken / "records" / "000005.txt"
    record.write_text(record.read_text().replace("label:", "label: x", 1))
    said = _said(run("verify", str(broken), home=tmp_path), ExitStatus.NOT_VERIFIED)
    assert "does not verify" in said and "records/000005.txt" in said
    as_json = run("verify", str(broken), "--json", home=tmp_path)
    assert as_json.returncode == ExitStatus.NOT_VERIFIED and '"verified": false' in as_json.stdout


def test_an_os_error_names_its_file(tmp_path):
    """A file where seki needs a folder: the machine's refusal, not a bug, not the input."""
    where = tmp_path / "plain-file"
    where.write_text("")
    said = _said(run("keys", "new", "x", "--dir", str(where), home=tmp_path), ExitStatus.IO)
    assert str(where) in said


def _as_at_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it: a test run started in the background by a shell
    without job control (`cmd &` in a script) ignores SIGINT, and so would seki."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_is_said_and_ends_with_130(tmp_path):
    env = {"SEKI_HOME": str(tmp_path), "LANG": "C"}
    with subprocess.Popen([str(SEKI), "demo", str(tmp_path / "demo")], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          preexec_fn=_as_at_a_terminal) as running:  # fmt: skip
        records = tmp_path / "demo" / "game" / "records"
        while running.poll() is None and len(list(records.glob("*.txt"))) < 10:
            time.sleep(0.05)  # the game is being played: interrupt it halfway
        running.send_signal(signal.SIGINT)
        out, err = running.communicate(timeout=60)
    assert running.returncode == ExitStatus.INTERRUPTED, err
    assert err == "seki: interrupted\n" and out == ""
