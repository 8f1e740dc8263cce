"""`seki play` before the game starts (one command for everything): the invitation found
in the player's mailbox is joined once the player says yes at the terminal, and when the
other side's join comes the seed goes by itself; then the first packet is played."""

from __future__ import annotations

import mailbox
import os
import sys
from email.message import EmailMessage
from pathlib import Path

import pexpect

from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import joins
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee

NOW = "2026-11-22T12:00:00Z"


def _mail(box: mailbox.Maildir, name: str, text: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ref@seki.test", "alice@seki.test", "[seki g] mail"
    msg.set_content("Attached.")
    msg.add_attachment(text.encode(), maintype="text", subtype="plain", filename=name)
    box.add(msg)


def _seki(home: Path, cwd: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "SEKI_HOME": str(home), "PROMPT_TOOLKIT_NO_CPR": "1"}
    return pexpect.spawn(sys.executable, ["-m", "sekigahara_pbem", *args], cwd=str(cwd),
                         env=env, encoding="utf-8", timeout=60, dimensions=(50, 100))  # fmt: skip


def test_seki_play_joins_sends_the_seed_and_plays(fresh_game, tmp_path):
    root, ref, players, definition = fresh_game
    home, cwd = tmp_path / "alice-home", tmp_path / "alice"
    cwd.mkdir()
    write_identity(home, players["ishida"])
    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    (home / "mail.toml").write_text(
        f'from = "alice@seki.test"\nmaildir = "{tmp_path / "maildir"}"\n'
    )
    _mail(box, "game.txt", GameDir(root).definition.read_text())

    declined = _seki(home, cwd, "play", "--key", "alice")
    declined.expect(r"You are invited to play ishida in game g by the referee ref")
    declined.expect(r"Join\? \[y/N\]")
    declined.sendline("n")
    declined.expect(pexpect.EOF)
    assert not list(cwd.iterdir())

    child = _seki(home, cwd, "play", "--key", "alice")
    child.expect(r"Join\? \[y/N\]")
    child.sendline("y")
    child.expect("wrote join-g-ishida.txt: mail it to the referee")
    child.expect("no packet yet")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    bob = joins.make_join(definition, players["tokugawa"])
    for name, text in (("join-ishida", (cwd / "join-g-ishida.txt").read_text()), ("jt", bob)):
        (outcome,) = referee.adjudicate(root, ref, [(name, text.encode())], NOW)
        assert outcome.accepted, outcome.message
    _mail(box, "join-g-tokugawa.txt", bob)  # as the robot forwards it

    child = _seki(home, cwd, "play", "--key", "alice", "--choose", "1")
    child.expect("wrote seed-g-ishida.txt: mail it to the referee")
    child.expect(pexpect.EOF)
    child.close()
    theirs = joins.make_seed(
        definition, players["tokugawa"], (cwd / "join-g-ishida.txt").read_text(), "j"
    )
    for name, text in (("seed-ishida", (cwd / "seed-g-ishida.txt").read_text()), ("st", theirs)):
        (outcome,) = referee.adjudicate(root, ref, [(name, text.encode())], NOW)
        assert outcome.accepted, outcome.message
    _mail(box, "packet.txt", GameDir(root).packet(1, "ishida").read_text())

    child = _seki(home, cwd, "play", "--key", "alice", "--choose", "1")
    child.expect("wrote turn-g-1-ishida.signed.txt: mail it to the referee")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert sorted(p.name for p in cwd.iterdir()) == [
        "join-g-ishida.txt", "seed-g-ishida.txt", "turn-g-1-ishida.signed.txt",
    ]  # fmt: skip
