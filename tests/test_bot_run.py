"""Issue 15's `seki bot run` (for cron): two computer players, each at its own IMAP
mailbox and SMTP account on 127.0.0.1, play against the referee's mail robot. They join
from the invitation, send their seeds when the robot forwards the other's join, and answer
every packet; nothing they send is refused, a pass repeated sends nothing twice, and the
archive verifies. They read nothing but their own mail."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner
from conftest import fix_seeds
from mailplay import Campaign, player_mail_settings
from mailservers import PASSWORD

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.rules.vocab import SIDES

RECORDS = int(os.environ.get("SEKI_BOT_RUN_RECORDS", "12"))


def _home(c: Campaign, side: str) -> Path:
    """A bot's key directory: its identity and its mail settings, nothing else."""
    home = c.base / f"bot-{side}"
    write_identity(home, c.people[side])
    (home / "mail.toml").write_text(player_mail_settings(c.servers, side))
    return home


def _bot(home: Path, side: str, *extra: str) -> str:
    env = {"SEKI_HOME": str(home), "SEKI_IMAP_PASSWORD": PASSWORD,
           "SEKI_SMTP_PASSWORD": PASSWORD}  # fmt: skip
    result = CliRunner().invoke(app, ["bot", "run", "--key", side, *extra], env=env)
    assert result.exit_code == 0, result.output
    assert "not used" not in result.output, result.output
    return result.output


def test_two_bots_play_by_mail_against_the_robot(servers, tmp_path, monkeypatch):
    fix_seeds(monkeypatch, "bot-run")
    c = Campaign(tmp_path, servers)
    root = c.new_game("botgame")
    homes = {s: _home(c, s) for s in SIDES}
    gd = GameDir(root)
    for _ in range(RECORDS + 20):
        out = c.robot()
        assert "refused" not in out.lower(), out
        for side in SIDES:
            _bot(homes[side], side, "--plans")
        if gd.last_seq() >= RECORDS:
            break
        c.advance(1)
    assert gd.last_seq() >= RECORDS
    for side in SIDES:  # joined by itself, sent its seed once, answered its packets
        sent = {p.name.split("-")[0] for p in (homes[side] / "sent").iterdir()}
        assert sent == {"join", "seed", "turn"}, sent
    c.robot()
    for side in SIDES:
        _bot(homes[side], side)
    again = {side: _bot(homes[side], side) for side in SIDES}  # nothing new: nothing sent
    assert all("0 files mailed" in out for out in again.values()), again
    result = c.cli("verify", str(root))
    assert result.exit_code == 0, result.output
