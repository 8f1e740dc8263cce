"""A whole two-party game by mail (issue 14): two computer players, each at its own IMAP
mailbox and SMTP account on 127.0.0.1, with no referee. Each pass fetches its mail, takes
in the other's records, writes its own when it is its turn, and mails what it has not
mailed; at the end both reveal by mail and each side's directory verifies."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from mailplay import address, player_mail_settings
from mailservers import PASSWORD

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.mail import settings as mail_config
from sekigahara_pbem.play.two_party import robot_pass
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty import side as sides
from sekigahara_pbem.twoparty.match import player_chooser

NOW = "2026-11-23T06:00:00Z"

MAX_PASSES = 1500


@pytest.mark.slow
def test_two_bots_play_a_two_party_game_by_mail(servers, tmp_path, monkeypatch):
    monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SEKI_SMTP_PASSWORD", PASSWORD)
    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    emails = {s: address(s) for s in SIDES}
    text = files.make_game(
        "mail2p", components_hash(), {}, {s: k.public for s, k in keys.items()}, keys["ishida"],
        emails,
    )  # fmt: skip
    homes, players, mails = {}, {}, {}
    for s in SIDES:
        homes[s] = tmp_path / f"home-{s}"
        homes[s].mkdir()
        (homes[s] / "mail.toml").write_text(player_mail_settings(servers, s))
        mails[s] = mail_config.load(homes[s] / "mail.toml")
        players[s] = sides.create(tmp_path / f"game-{s}", text, keys[s], NOW)
    choosers = {s: player_chooser(make_player("heuristic", comp, {}, f"mail-{s}")) for s in SIDES}
    for _ in range(MAX_PASSES):
        for s in SIDES:
            monkeypatch.setenv("SEKI_HOME", str(homes[s]))
            for line in robot_pass(players[s], mails[s], choosers[s], NOW):
                assert not line.startswith("not taken"), line
        if all((players[s].root / "reveals" / f"{o}.txt").exists() for s in SIDES for o in SIDES):
            break
    else:
        raise AssertionError("the game did not end by mail")
    assert players["ishida"].result() is not None
    for s in SIDES:
        audit = sides.verify(players[s].root)
        assert audit.retraced > 100
    names = {s: sorted(p.name for p in (players[s].root / "records").iterdir()) for s in SIDES}
    assert names["ishida"] == names["tokugawa"]


def test_a_two_party_game_names_its_players_addresses(tmp_path):
    keys = {s: generate(s) for s in SIDES}
    publics = {s: k.public for s, k in keys.items()}
    text = files.make_game(
        "a", components_hash(), {}, publics, keys["ishida"], {"ishida": "i@x.org"}
    )
    assert files.read_game(text, "game.txt").addresses == {"ishida": "i@x.org"}
    with pytest.raises(Refusal, match="not a mail address"):
        files.make_game(
            "a", components_hash(), {}, publics, keys["ishida"], {"ishida": "x\nBcc: y"}
        )


def test_seki_bot_run_plays_a_two_party_game_by_mail(servers, tmp_path):
    """The same through the command a cron job runs: `seki bot run --two-party DIR`."""
    from sekigahara_pbem.crypto.keystore import write_identity

    keys = {s: generate(s) for s in SIDES}
    emails = {s: address(s) for s in SIDES}
    publics = {s: k.public for s, k in keys.items()}
    text = files.make_game("cli2p", components_hash(), {}, publics, keys["tokugawa"], emails)
    runner = CliRunner()
    for s in SIDES:
        home = tmp_path / f"home-{s}"
        write_identity(home, keys[s])
        (home / "mail.toml").write_text(player_mail_settings(servers, s))
        sides.create(tmp_path / f"game-{s}", text, keys[s], NOW)
    for _ in range(8):
        for s in SIDES:
            env = {"SEKI_HOME": str(tmp_path / f"home-{s}"), "SEKI_IMAP_PASSWORD": PASSWORD,
                   "SEKI_SMTP_PASSWORD": PASSWORD}  # fmt: skip
            args = ["bot", "run", "--key", s, "--two-party", str(tmp_path / f"game-{s}")]
            result = runner.invoke(app, args, env=env)
            assert result.exit_code == 0, result.output
            assert "not taken" not in result.output and "Traceback" not in result.output
    records = sorted((tmp_path / "game-ishida" / "records").iterdir())
    assert len(records) >= 12
    assert "mailed" in result.output
