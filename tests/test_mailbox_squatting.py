"""Issue 28, "Mailbox squatting" and "Mail reflection": a stranger's mail, sent through the
real SMTP server into the real IMAP mailbox before the real one, must not take the name of
a document it claims to be, hide the real one or decide what is answered next; and the
referee's robot answers only the players' addresses in game.txt, whatever a subject says.

Each test mounts the attack through the commands a player or a cron job runs (`seki bot
run`, `seki play`'s mail intake, `seki referee run`) against dovecot and aiosmtpd on
127.0.0.1. The stranger signs with a key of its own under the name it pretends to (the
opponent, when it is the attacker, with its real key)."""

from __future__ import annotations

import smtplib
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fix_seeds
from mailplay import Campaign, address, player_mail_settings
from mailservers import PASSWORD

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.mail import settings as mail_config
from sekigahara_pbem.play import inbox, mailbox
from sekigahara_pbem.play.two_party import robot_pass, take_mail
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol import game
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty import side as sides
from sekigahara_pbem.twoparty.match import player_chooser

NOW = "2026-11-23T06:00:00Z"
STRANGER = "mallory@evil.test"


def _post(servers, to: str, name: str, text: str | None, **headers: str) -> None:
    """A mail through the real SMTP server (an account of its own: any account can send
    it), with the headers the sender chooses; `text`, a document, is attached as `name`."""
    msg = EmailMessage()
    msg["From"] = headers.pop("From", STRANGER)
    msg["To"] = address(to)
    for key, value in headers.items():
        msg[key.replace("_", "-")] = value
    msg.set_content("My move, attached.")
    if text is not None:
        msg.add_attachment(text.encode(), maintype="text", subtype="plain", filename=name)
    smtp = smtplib.SMTP("127.0.0.1", servers.smtp.port, timeout=30)
    smtp.starttls(context=servers.tls)
    smtp.login("tokugawa", PASSWORD)
    smtp.send_message(msg)
    smtp.quit()


def _forged(body: dict, name: str) -> str:
    """A document in seki's own envelope, signed by a stranger's key that bears `name`."""
    return signing.sign(docs.dump(body), generate(name))


# -- referee mode: `seki bot run` at its mailbox ---------------------------------------


def _bot_home(c: Campaign, side: str) -> Path:
    home = c.base / f"bot-{side}"
    write_identity(home, c.people[side])
    (home / "mail.toml").write_text(player_mail_settings(c.servers, side))
    return home


def _bot(home: Path, side: str) -> str:
    env = {"SEKI_HOME": str(home), "SEKI_IMAP_PASSWORD": PASSWORD,
           "SEKI_SMTP_PASSWORD": PASSWORD}  # fmt: skip
    result = CliRunner().invoke(app, ["bot", "run", "--key", side], env=env)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("attack", ["join", "packet"])
def test_a_strangers_join_or_packet_does_not_stop_seki_bot_run(servers, tmp_path, monkeypatch,
                                                               attack):  # fmt: skip
    """Before the real one, a stranger mails Ishida's bot "Tokugawa's join" (the join its
    seed must answer), or "packet 1" and "packet 999999" (the packet it must answer).
    The old bot kept the first file under the name it claimed and dropped the real one
    for ever (the seed was never sent), or answered the highest number, which never
    opened: the game stalled, and the referee's deadline ran against Ishida. Now a
    document is kept only once its signature checks, under its own hash, and the newest
    *authentic* packet is answered. The referee's robot, sent a forged join first, was
    never open to it: it checks signatures before it files (referee/records/opening.py)."""
    fix_seeds(monkeypatch, f"squat-{attack}")
    c = Campaign(tmp_path, servers)
    game_id = f"squat{attack}"
    root = c.new_game(game_id)
    homes = {s: _bot_home(c, s) for s in SIDES}
    ishida = homes["ishida"]
    c.robot()  # the invitations
    if attack == "join":
        forged = {"format": "seki-join/2", "game": game_id, "side": "ishida",
                  "seed_commitment": "0" * 64}  # fmt: skip
        _post(servers, "referee", "join.txt", _forged(forged, "ishida"), From=address("ishida"))
    for side in SIDES:
        _bot(homes[side], side)  # each joins
    if attack == "join":
        forged = {"format": "seki-join/2", "game": game_id, "side": "tokugawa",
                  "seed_commitment": "0" * 64}  # fmt: skip
        subject = f"[seki {game_id}] both sides have joined"
        _post(servers, "ishida", f"join-{game_id}-tokugawa.txt", _forged(forged, "tokugawa"),
              From=address("referee"), Subject=subject)  # fmt: skip
    c.robot()  # both joins taken: each side is sent the other's join
    assert all(GameDir(root).join(s).is_file() for s in SIDES)
    for side in SIDES:
        _bot(homes[side], side)  # each sends its seed
    assert any(p.name.startswith("seed-") for p in (ishida / "sent").iterdir())
    if attack == "packet":
        for seq in (1, 999_999):
            forged = {"format": "seki-packet/1", "game": game_id, "seq": seq, "to": "ishida",
                      "record": "0" * 64, "section": "x",
                      "pending": [{"side": "ishida", "kind": "bid"}]}  # fmt: skip
            _post(servers, "ishida", f"packet-{game_id}-{seq}-ishida.txt",
                  _forged(forged, "referee"), From=address("referee"),
                  Subject=f"[seki {game_id}] record {seq}: your move")  # fmt: skip
    c.robot()  # both seeds: record 1, and the packets asking each side's bid
    assert GameDir(root).last_seq() == 1
    if attack == "packet":  # `seki play`'s choice, from the mail and from a folder by hand
        monkeypatch.setenv("SEKI_HOME", str(ishida))
        monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
        monkeypatch.setenv("SEKI_SMTP_PASSWORD", PASSWORD)
        folder, _, _ = mailbox.collect(mailbox.settings(None))
        (folder / "by-hand.txt").write_text(_forged(forged, "referee"))
        chosen = inbox.newest(folder, c.people["ishida"])
        assert f"{chosen.name}".startswith(f"{game_id}-000001-ishida"), chosen.name
    out = _bot(ishida, "ishida")
    assert "not used" not in out, out
    assert (ishida / "sent" / f"turn-{game_id}-1-ishida.signed.txt").is_file(), out
    assert f"accepted: {game_id}: record 2" in c.robot()


def test_a_strangers_invitation_does_not_take_the_games_place(servers, tmp_path):
    """A stranger invites Ishida's bot to a game of the same id as the referee's, before
    the referee does. The old bot kept the first invitation under the game's id, joined
    the stranger's game and dropped the real one. Nothing Ishida holds vouches for either
    (the referee's key is in the invitation itself), so now the bot joins neither and
    says which files to compare; both are kept."""
    c = Campaign(tmp_path, servers)
    home = _bot_home(c, "ishida")
    mallory = generate("referee")
    theirs = game.create(
        tmp_path / "mallory", "squatinvite", mallory, {s: c.people[s].public for s in SIDES},
        components_hash(), {}, NOW, game.Terms(addresses={"referee": address("referee")}),
    )  # fmt: skip
    text = theirs.text
    _post(servers, "ishida", "game.txt", text, From=address("referee"))
    c.new_game("squatinvite")
    c.robot()  # the real invitations
    out = _bot(home, "ishida")
    joined = home / "games" / "squatinvite.txt"
    assert not joined.exists() or mallory.public.key_id not in joined.read_text()
    assert "2 different invitations to game squatinvite" in out, out
    assert len(list((home / "invitations").glob("squatinvite-*.txt"))) == 2


# -- two-party mode: `seki bot run --two-party` (its pass, play/two_party.robot_pass) ----


def _two_party(tmp_path, servers, monkeypatch, game_id: str):
    monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SEKI_SMTP_PASSWORD", PASSWORD)
    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    emails = {s: address(s) for s in SIDES}
    text = files.make_game(game_id, components_hash(), {}, {s: k.public for s, k in keys.items()},
                           keys["ishida"], emails)  # fmt: skip
    homes, players, mails, choosers = {}, {}, {}, {}
    for s in SIDES:
        homes[s] = tmp_path / f"home-{s}"
        homes[s].mkdir()
        (homes[s] / "mail.toml").write_text(player_mail_settings(servers, s))
        mails[s] = mail_config.load(homes[s] / "mail.toml")
        players[s] = sides.create(tmp_path / f"game-{s}", text, keys[s], NOW)
        choosers[s] = player_chooser(make_player("heuristic", comp, {}, f"squat-{s}"))

    def one(side: str, play: bool = True) -> list[str]:
        """A pass of `seki bot run --two-party`; without `play`, only its mail intake."""
        monkeypatch.setenv("SEKI_HOME", str(homes[side]))
        if not play:
            return take_mail(players[side], mails[side], NOW)
        return robot_pass(players[side], mails[side], choosers[side], NOW)

    return keys, players, one


def _record(game_id: str, n: int, side: str) -> dict:
    return {"format": "seki-2p-record/1", "game": game_id, "side": side, "n": n, "seq": 1,
            "prev": "0" * 64, "entries": [], "commitments": {}, "contribution": "00",
            "written": NOW}  # fmt: skip


def _first(body: dict, author) -> str:
    """The body signed by `author`, varied until its file name in the mailbox (its hash)
    comes before nearly any other: the forged record is tried before the real one."""
    for i in range(10_000):
        text = signing.sign(docs.dump({**body, "contribution": f"{i:04x}"}), author)
        if docs.sha256(text).startswith("00"):  # play/filing.py names it by this hash
            return text
    raise AssertionError("no hash found")


@pytest.mark.parametrize("signer", ["stranger", "opponent"])
def test_a_forged_record_does_not_shadow_the_real_one(servers, tmp_path, monkeypatch, signer):
    """Before Ishida's record 2 comes, Tokugawa's mailbox gets a "record 2 of Ishida":
    from a stranger, or signed by Ishida itself but not the record it plays. The old
    mailbox kept the first as `0002-ishida.txt` and dropped the real record: Tokugawa
    never took it, and Ishida could then claim that Tokugawa forfeited. Now every file
    is kept by its hash, a stranger's is dropped before it is read, and the real record
    is taken."""
    game_id = f"squat2p{signer}"
    keys, players, one = _two_party(tmp_path, servers, monkeypatch, game_id)
    one("ishida")  # mails its join
    one("tokugawa")  # takes it, mails its own
    author = keys["ishida"] if signer == "opponent" else generate("ishida")
    forged = _first(_record(game_id, 2, "ishida"), author)
    _post(servers, "tokugawa", "records/0002-ishida.txt", forged, From=address("ishida"),
          Subject=f"[seki {game_id}] ishida: records/0002-ishida.txt")  # fmt: skip
    one("ishida")  # takes Tokugawa's join, writes record 2 and mails it
    real = players["ishida"].record_path(2, "ishida")
    assert real.is_file()
    said = one("tokugawa")
    taken = players["tokugawa"].record_path(2, "ishida")
    assert taken.is_file(), said
    assert taken.read_bytes() == real.read_bytes()
    assert "took 0002-ishida.txt: checked against your own engine" in said
    assert said[1].startswith("not taken:"), said  # the forged one, tried first
    assert not list((tmp_path / "home-tokugawa" / "two-party" / game_id).glob("*.txt"))


def test_a_forged_reveal_does_not_shadow_the_real_one(servers, tmp_path, monkeypatch):
    """Ishida resigns and reveals; before Tokugawa's reveal comes, a stranger mails
    Ishida "Tokugawa's reveal". The old mailbox kept it as `reveal-tokugawa.txt` and
    dropped the real one: Ishida never held Tokugawa's secret, the game could not be
    verified, and Ishida could claim the reveal was late. Now the real reveal is taken."""
    game_id = "squat2preveal"
    keys, players, one = _two_party(tmp_path, servers, monkeypatch, game_id)
    one("ishida")
    one("tokugawa")
    one("ishida", play=False)  # takes Tokugawa's join; its turn now
    players["ishida"].resign(NOW)
    forged = {"format": "seki-2p-reveal/1", "game": game_id, "side": "tokugawa",
              "secret": "00" * 32, "written": NOW}  # fmt: skip
    subject = f"[seki {game_id}] tokugawa: reveals/tokugawa.txt"
    _post(servers, "ishida", "reveals/tokugawa.txt", _forged(forged, "tokugawa"),
          From=address("tokugawa"), Subject=subject)  # fmt: skip
    one("ishida")  # reveals its own secret, mails its resignation and reveal
    one("tokugawa")  # takes them, reveals its own, mails it
    said = one("ishida")
    assert (players["ishida"].root / "reveals" / "tokugawa.txt").is_file(), said
    assert "took reveal-tokugawa.txt" in said
    assert sides.verify(players["ishida"].root)


# -- the referee's robot: replies go to the players' addresses only --------------------


def test_the_robot_answers_no_stranger_whatever_the_subject(servers, tmp_path):
    """Two mails with `[seki <game>]` in the subject and nothing usable: one from a
    stranger, one that gives a player's address as From and the stranger's as Reply-To.
    The old robot answered both to the stranger (any address can be made the target of
    a reflection that way); now neither is answered, and the pass has nothing unsent."""
    c = Campaign(tmp_path, servers)
    c.new_game("squatreply")
    c.robot()
    subject = "[seki squatreply] my move"
    _post(servers, "referee", "turn.txt", "Kyoto!", Subject=subject)
    _post(servers, "referee", "turn.txt", "Kyoto!", Subject=subject, From=address("ishida"),
          Reply_To=STRANGER)  # fmt: skip
    result = c.cli("referee", "run", str(c.spool), *map(str, c.games), "--key",
                   c.key("referee"), "--imap", "--mail-config", str(c.config),
                   "--now", c.now_text())  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("not answered") == 2, result.output
    for folder in ("outbox", "sent"):
        for path in (c.spool / folder).glob("*.eml"):
            msg = message_from_bytes(path.read_bytes(), policy=default)
            assert STRANGER not in str(msg["To"]), path.name
