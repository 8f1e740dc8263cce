"""Issue 13's proof by mail: a game's first week played by two people through `seki play`
alone, each at a real pseudo-terminal, answering key by key; their packets come from
their own IMAP mailboxes (dovecot, TLS) and their turn files go by SMTP (STARTTLS, AUTH)
to the referee's robot (`seki referee run`), all on 127.0.0.1. No file is refused, and no
YAML is written by anyone."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pexpect
import playscript
import yaml
from conftest import fix_seeds
from mailplay import Campaign, player_mail_settings
from mailservers import PASSWORD

from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.play import inbox, mailbox
from sekigahara_pbem.rules.vocab import SIDES

PROMPT = r"u undo, q stop\)"


def _home(c: Campaign, side: str, root: Path) -> Path:
    """A player's key directory: the identity, the game joined, the mail settings."""
    home = c.base / f"home-{side}"
    write_identity(home, c.people[side])
    (home / "games").mkdir(parents=True, exist_ok=True)
    shutil.copy(root / "game.txt", home / "games" / f"{root.name}.txt")
    (home / "mail.toml").write_text(player_mail_settings(c.servers, side))
    return home


def _play(home: Path, side: str, pairs: list, cwd: Path) -> str:
    env = {
        **os.environ,
        "SEKI_HOME": str(home),
        "SEKI_SMTP_PASSWORD": PASSWORD,
        "SEKI_IMAP_PASSWORD": PASSWORD,
        "TERM": "xterm",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # pexpect does not answer cursor-position queries
    }
    child = pexpect.spawn(
        sys.executable, ["-m", "sekigahara_pbem", "play", "--key", side, "--send"],
        cwd=str(cwd), env=env, encoding="utf-8", timeout=60, dimensions=(50, 100),
    )  # fmt: skip
    for text, question in pairs:
        child.expect(PROMPT)
        child.send(playscript.keys(text, question))
    child.expect("Sign it\\?")
    child.send("\r")
    child.expect("mailed (\\S+) to the referee")
    sent = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return sent


def test_week_one_by_mail_with_seki_play_at_a_terminal(servers, tmp_path, monkeypatch):
    fix_seeds(monkeypatch, "play-mail")
    c = Campaign(tmp_path, servers)
    root = c.new_game("playmail")
    c.round()  # the invitations go out; the players' mail clients join
    homes = {s: _home(c, s, root) for s in SIDES}
    c.deliver()  # the joins: each side is sent the other's join and answers with its seed
    c.robot()  # the seeds: the game is set up and the first packets are mailed
    turns = 0
    while True:
        state = yaml.safe_load((root / "public" / "state.yaml").read_text())
        if state["week"] > 1 or not state["pending"]:
            break
        side = sorted({d["side"] for d in state["pending"]})[0]
        monkeypatch.setenv("SEKI_HOME", str(homes[side]))
        monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
        monkeypatch.setenv("SEKI_SMTP_PASSWORD", PASSWORD)
        folder, _, _ = mailbox.collect(mailbox.settings(None))
        packet = inbox.newest(folder, c.people[side])  # what seki play will answer
        seq = int(packet.stem.split("-")[1])
        pairs, _ = playscript.answers(side, packet, seq)
        assert _play(homes[side], side, pairs, tmp_path) == f"turn-playmail-{seq}-{side}.signed.txt"
        out = c.robot()
        assert "refused" not in out.lower(), out
        c.advance(1)
        turns += 1
        assert turns < 100
    assert turns > 4
    assert not (root / "rejected").exists()
