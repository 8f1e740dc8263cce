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
from mailplay import Campaign, player_mail_settings
from mailservers import PASSWORD

from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import joins
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee

NOW = "2026-11-22T12:00:00Z"
SEKI = Path(sys.executable).with_name("seki.exe" if os.name == "nt" else "seki")


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


def _player(c, side: str, tmp_path: Path) -> tuple[Path, Path, dict]:
    """A player's key directory with its mail settings, its folder, its environment."""
    home, cwd = tmp_path / f"{side}-home", tmp_path / side
    write_identity(home, c.people[side])
    (home / "mail.toml").write_text(player_mail_settings(c.servers, side))
    cwd.mkdir()
    env = {**os.environ, "SEKI_HOME": str(home), "SEKI_SMTP_PASSWORD": PASSWORD,
           "SEKI_IMAP_PASSWORD": PASSWORD, "PROMPT_TOOLKIT_NO_CPR": "1"}  # fmt: skip
    return home, cwd, env


def _run(cwd: Path, env: dict, *args: str, join: str | None = None) -> str:
    """The real seki at a terminal; `join` answers its question; all it said."""
    child = pexpect.spawn(str(SEKI), list(args), cwd=str(cwd), env=env, encoding="utf-8",
                          timeout=60, dimensions=(50, 200))  # fmt: skip
    if join is not None:
        child.expect(r"Join\? \[y/N\]")
        child.sendline(join)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return child.before


def test_a_join_written_without_send_is_mailed_by_the_next_send_once(servers, tmp_path):
    """Issue 31: `seki play` without --send wrote the join for the player to mail, and no
    later --send ever mailed it (the game waited for ever, and the next run said only that
    there was no packet). Now the next `seki play --send` mails it, says so, and neither
    it nor `seki join --send` mails it again; the referee's robot takes it once."""
    c = Campaign(tmp_path, servers)
    c.new_game("latejoin")
    c.robot()  # the invitations
    home, cwd, env = _player(c, "ishida", tmp_path)
    first = _run(cwd, env, "play", "--key", "ishida", join="y")
    assert "wrote join-latejoin-ishida.txt: mail it to the referee, or let seki play" in first
    assert not (home / "mail" / "sent").is_dir() or not any((home / "mail" / "sent").iterdir())
    sent = _run(cwd, env, "play", "--key", "ishida", "--send")
    assert "written earlier without --send: mailed join-latejoin-ishida.txt to the referee" in sent
    assert "no packet yet" in sent
    again = _run(cwd, env, "play", "--key", "ishida", "--send")
    assert "mailed" not in again and "no packet yet" in again
    invitation = next((home / "invitations").glob("latejoin-*.txt"))
    by_hand = _run(cwd, env, "join", str(invitation), "--key", "ishida", "--send")
    assert "join-latejoin-ishida.txt was mailed to the referee before: not sent again" in by_hand
    out = c.robot()
    assert out.count("ishida joined") == 1, out
    referee = mailbox.Maildir(servers.mail_root / "referee" / "Maildir", create=False)
    subjects = [str(m["Subject"]) for m in referee]
    assert subjects.count("[seki latejoin] join latejoin") == 1
