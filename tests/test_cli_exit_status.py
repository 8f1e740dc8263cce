"""One meaning per exit status (issue 31; refusal.ExitStatus, docs/cli.md): the real
`seki`, made to end each way, ends with that way's status and says why on standard
error. 70 (a bug) is tests/test_internal_errors.py's, 75 (mail kept to send again)
tests/test_mail.py's."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import cligame
import pexpect

from sekigahara_pbem import i18n
from sekigahara_pbem.refusal import ExitStatus

SEKI = Path(sys.executable).parent / "seki"
DEMO = Path(__file__).parent.parent / "games" / "demo"
DOCS = Path(__file__).parent.parent / "docs"


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


def test_no_game_directory_is_refused_alike_by_verify_and_status(tmp_path):
    """`seki verify /nonexistent` said 3, "does not verify", as if an archive had been
    altered; there is no archive: a refusal (1), as `seki status` says it. An archive whose
    game.txt is there but wrong still does not verify (3)."""
    nowhere = str(tmp_path / "nowhere")
    said = _said(run("verify", nowhere, home=tmp_path), ExitStatus.REFUSED)
    assert said == _said(run("status", nowhere, home=tmp_path), ExitStatus.REFUSED)
    assert said == f"seki: {nowhere} is not a game directory (no game.txt)\n"
    as_json = run("verify", nowhere, "--json", home=tmp_path)
    assert as_json.returncode == ExitStatus.REFUSED
    assert json.loads(as_json.stdout) == {"verified": False, "code": "store",
                                          "reason": said[len("seki: "):-1]}  # fmt: skip
    broken = tmp_path / "demo"
    shutil.copytree(DEMO, broken, ignore=shutil.ignore_patterns(".git"))
    (broken / "game.txt").write_text("not a game\n")
    assert "game.txt" in _said(run("verify", str(broken), home=tmp_path), ExitStatus.NOT_VERIFIED)


def _at_a_terminal(home: Path, *args: str, cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "SEKI_HOME": str(home), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1",
           "LANG": "C"}  # fmt: skip
    return pexpect.spawn(str(SEKI), list(args), cwd=str(cwd), env=env, encoding="utf-8",
                         timeout=60, dimensions=(50, 100),
                         preexec_fn=_as_at_a_terminal)  # fmt: skip


def test_ctrl_c_at_a_prompt_is_an_interruption(tmp_path):
    """Ctrl-C at seki play's question exited 4 (stopped by the player) and at a click
    prompt 1 ("Aborted!"): the table says 130 for Ctrl-C, wherever it is typed. `q` and
    Ctrl-D stop the turn (4); nothing is written either way."""
    cligame.started(tmp_path)
    for keys, status in (("\x03", ExitStatus.INTERRUPTED), ("\x04", ExitStatus.STOPPED)):
        child = _at_a_terminal(tmp_path / "alice", "play", cligame.PACKET, cwd=tmp_path)
        child.expect(r"\(a number; u undo, q stop\)")
        child.send(keys)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == status, (keys, child.before)
    assert "seki: interrupted" in _interrupted_passphrase(tmp_path)
    assert not list(tmp_path.glob("turn-*")) and not (tmp_path / "alice" / "x.identity").exists()


def _interrupted_passphrase(tmp_path: Path) -> str:
    """Ctrl-C at `seki keys new --passphrase`'s prompt (click's): what it said."""
    child = _at_a_terminal(tmp_path / "alice", "keys", "new", "x", "--passphrase", cwd=tmp_path)
    child.expect("Passphrase for the new identity")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == ExitStatus.INTERRUPTED, child.before
    return child.before


def test_an_unknown_language_on_the_command_line_is_a_usage_error(tmp_path):
    """`--lang xx` went on in English with a note: typed on the command line, it is a
    usage error naming the languages there are (i18n.available); from the environment a
    language seki lacks is passed over quietly, and from config.toml it is a note."""
    for args in (("--lang", "xx", "status", "g"), ("--lang=xx", "verify", "g"),
                 ("report", "g", "--lang", "xx")):  # fmt: skip
        done = run(*args, home=tmp_path)
        assert done.returncode == ExitStatus.USAGE and done.stdout == "", done.stderr
        languages = ", ".join(i18n.available())
        assert done.stderr == f"seki: --lang 'xx': no such language here (available: {languages})\n"
    french = subprocess.run([str(SEKI), "status", "g"], capture_output=True, text=True,
                            env={"SEKI_HOME": str(tmp_path), "LANG": "fr_FR.UTF-8"})  # fmt: skip
    assert french.stderr == "seki: g is not a game directory (no game.txt)\n"
    (tmp_path / "config.toml").write_text('lang = "xx"\n')
    noted = run("status", "g", home=tmp_path)
    assert noted.returncode == ExitStatus.REFUSED
    assert noted.stderr.startswith("seki: note: no 'xx' translation"), noted.stderr


def test_the_docs_say_the_status_mail_left_unsent_ends_with():
    """docs/referee.md said `seki mail send` and `seki referee run` exit 2 when mail is
    left unsent; they exit 75 (tests/test_mail.py), as the table in docs/cli.md says."""
    referee = (DOCS / "referee.md").read_text(encoding="utf-8")
    said = re.search(r"`seki referee run` exit (\d+) when something is\s+left unsent", referee)
    assert said and int(said.group(1)) == ExitStatus.MAIL
    table = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert f"| {int(ExitStatus.MAIL)} | mail not sent or fetched" in table
    assert f"| {int(ExitStatus.INTERRUPTED)} | interrupted (Ctrl-C" in table
