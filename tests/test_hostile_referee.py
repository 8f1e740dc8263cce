"""Referee mode against a modified client (issue 28, "Referee mode"): what a player can
sign with its own key and mail is refused at once and never costs the referee more than
reading it. Each test plays the attack through the real files and commands."""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import smtplib
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest
from mailplay import Campaign, address, player_mail_settings
from mailservers import PASSWORD
from test_pbem_cli import _started, ok, seki

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keystore import identity_path, read_identity, write_identity
from sekigahara_pbem.play import mailbox
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol import game, notes
from sekigahara_pbem.protocol.game import Definition
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.refusal import Refusal

LEVELS = 9  # 9 ** 9 names once walked: gigabytes, from well under a kilobyte


def _bomb_turn() -> str:
    """A turn whose battle plan nests one list in itself through aliases: the first place
    to declare a combat at is a list of lists, which a refusal used to quote whole."""
    levels = ["&l0 [" + ", ".join(["ukita-2a"] * 9) + "]"]
    levels += [f"&l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, LEVELS)]
    return (
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\nactions:\n"
        "  - type: plan\n    plan:\n      declare: [[" + ", ".join(levels) + "]]\n"
    )


def test_an_alias_bomb_in_a_signed_turn_file_is_refused_at_once(tmp_path):
    """An 800-byte turn file signed by its player (the stock client would not write it):
    refused as not plain YAML, kept in rejected/, and the game goes on."""
    ref, alice, _ = _started(tmp_path)
    text = _bomb_turn()
    assert len(text) < 1000
    identity = read_identity(identity_path(alice, "alice"))
    (tmp_path / "bomb.txt").write_text(signing.sign(text, identity), encoding="utf-8")
    start = time.monotonic()
    done = seki(ref, "adjudicate", "g", "bomb.txt", "--key", "ref", cwd=tmp_path)
    assert time.monotonic() - start < 60
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    assert "alias" in done.stdout + done.stderr
    assert len((done.stdout + done.stderr).splitlines()) < 20
    rejected = list((tmp_path / "g" / "rejected").iterdir())
    assert rejected and all(p.stat().st_size < 20_000 for p in rejected)
    assert "awaiting" in ok(seki(ref, "status", "g", cwd=tmp_path))


@pytest.mark.parametrize(
    "value", ["2026-02-30", "!!int x", "!!float x", "!!bool maybe", "!!int", "!!timestamp x"]
)
def test_a_value_yaml_cannot_construct_in_a_signed_turn_file_is_refused(tmp_path, value):
    """A turn file signed by its player whose YAML names a value that cannot be (a 30th of
    February, a tagged integer of letters or of nothing, a boolean neither yes nor no):
    PyYAML raises ValueError, KeyError, IndexError or AttributeError, each once an
    internal error (exit 70); refused as not valid YAML, kept in rejected/, and the game
    goes on."""
    ref, alice, _ = _started(tmp_path)
    text = f"format: seki-turn/1\ngame: g\nside: ishida\nanswers: {value}\nactions: []\n"
    identity = read_identity(identity_path(alice, "alice"))
    (tmp_path / "odd.txt").write_text(signing.sign(text, identity), encoding="utf-8")
    done = seki(ref, "adjudicate", "g", "odd.txt", "--key", "ref", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "not valid YAML" in done.stdout + done.stderr
    assert list((tmp_path / "g" / "rejected").iterdir())
    assert "awaiting" in ok(seki(ref, "status", "g", cwd=tmp_path))


# What arrives by mail: a robot on real SMTP and IMAP servers, two players at their own
# mail clients (tests/mailplay.py). One game, set up once; each test reads only the mail
# that is new to it.


@pytest.fixture(scope="module")
def mailgame(servers, tmp_path_factory):
    """A game started by `seki referee run` alone; Ishida and Tokugawa hold their first
    packets and have answered nothing."""
    c = Campaign(tmp_path_factory.mktemp("mailgame"), servers)
    c.new_game("g")
    c.round()  # invitations; the players answer with their joins
    c.round()  # the calls for seeds; the players answer with their seeds
    c.deliver()  # record 1 and the first packets
    assert GameDir(c.games[0]).last_seq() == 1
    return c


def _definition(c: Campaign) -> Definition:
    return game.load(GameDir(c.games[0]))


def _turn(c: Campaign, side: str, actions: list) -> str:
    """A turn file answering packet 1, written and signed as a modified client may."""
    definition = _definition(c)
    body = {"format": "seki-turn/1", "game": "g", "definition": definition.hash,
            "side": side, "answers": 1, "actions": actions}  # fmt: skip
    return signing.sign(docs.dump(body), c.people[side])


def _send_raw(c: Campaign, side: str, raw: bytes, to: str = "referee") -> None:
    """A mail written byte by byte, sent through the player's own SMTP account."""
    smtp = smtplib.SMTP("127.0.0.1", c.servers.smtp.port, timeout=30)
    smtp.starttls(context=c.servers.tls)
    smtp.login(side, PASSWORD)
    smtp.sendmail(address(side), [address(to)], raw)
    smtp.quit()


def _replies(messages: list[EmailMessage]) -> list[EmailMessage]:
    return [m for m in messages if str(m.get("Auto-Submitted")) == "auto-replied"]


def _notes(reply: EmailMessage) -> list[str]:
    return [
        p.get_content() for p in reply.iter_attachments() if p.get_filename().startswith("note-")
    ]


def _hand(c: Campaign, side: str) -> list[str]:
    """The cards the side holds, as the referee knows them."""
    game_ = referee.open_game(c.games[0], c.people["referee"])
    return referee.state_at(game_, GameDir(c.games[0]).last_seq())["cards"][side]["hand"]


def test_a_refusal_note_is_sealed_to_the_signer_never_to_whoever_forwards_the_file(mailgame):
    """Ishida's bid names a card it does not hold: the refusal lists Ishida's hand, so it
    travels sealed to Ishida. Tokugawa forwards Ishida's signed file from its own address:
    the robot refuses it again, and Tokugawa's reply holds no note Tokugawa can open and
    no card of Ishida's hand (the old robot sealed a note to the mail's sender, and
    Tokugawa read Ishida's hand in it)."""
    c = mailgame
    ishida, tokugawa = c.players["ishida"], c.players["tokugawa"]
    hand = _hand(c, "ishida")
    bid = _turn(c, "ishida", [{"type": "bid", "card": "date double"}])
    ishida.send("[seki g] my bid", bid)
    c.robot()
    (own,) = _replies(ishida.read_mail())
    (note,) = _notes(own)
    reasons = notes.open_note(_definition(c), note, c.people["ishida"], "note")
    assert "you hold" in " ".join(reasons)  # the signer reads its reasons

    tokugawa.send("Fwd: [seki g] what ishida sent", bid)
    out = c.robot()
    assert "refused: g:" in out
    (reply,) = _replies(tokugawa.read_mail())
    read = []  # what Tokugawa's key opens of the notes it was sent
    for text in _notes(reply):
        with contextlib.suppress(Refusal):
            read += notes.open_note(_definition(c), text, c.people["tokugawa"], "note")
    assert not read, read  # the old robot: "no Date double in your hand (you hold: ...)"
    shown = reply.as_string()
    assert "you hold" not in shown and not [card for card in hand if card in shown]
    assert "was refused" in reply.get_body(("plain",)).get_content()
    assert GameDir(c.games[0]).last_seq() == 1


ENCODED_NEWLINE = "=?utf-8?b?" + base64.b64encode(b"<a@seki.test>\r\nBcc: x@y.z").decode() + "?="
MESSAGE_IDS = {"encoded-newline": ENCODED_NEWLINE, "garbage": "<<<@@@>>> (((", "none": ""}


@pytest.mark.parametrize("case", sorted(MESSAGE_IDS))
def test_a_message_id_that_is_no_msg_id_still_gets_its_reply(mailgame, case):
    """A mail whose Message-ID decodes to a line break, or does not parse: the robot used
    to stop on it with an internal error and answer nothing. It answers, threading the
    reply only to a well-formed Message-ID, and copies nothing of it into a header."""
    c = mailgame
    ishida = c.players["ishida"]
    head = f"Message-ID: {MESSAGE_IDS[case]}\r\n" if MESSAGE_IDS[case] else ""
    raw = (f"From: {address('ishida')}\r\nTo: {address('referee')}\r\n{head}"
           f"Subject: [seki g] {case}\r\n\r\nmy move: Kyoto!\r\n").encode()  # fmt: skip
    _send_raw(c, "ishida", raw)
    out = c.robot()  # exits 0: no internal error
    assert "quarantined" not in out
    (reply,) = _replies(ishida.read_mail())
    assert "no seki document was found" in reply.get_body(("plain",)).get_content()
    assert "Bcc" not in reply and reply["In-Reply-To"] is None


@pytest.mark.parametrize("kind", ["list", "mapping"])
def test_an_action_type_that_is_not_text_is_refused_by_mail_and_kept(mailgame, kind):
    """A signed turn whose action `type` is a list or a mapping: the robot used to stop on
    it (TypeError) with nothing kept in rejected/ and no reply. It is refused naming the
    field, kept, and the signer gets the reason in its sealed note."""
    c = mailgame
    ishida = c.players["ishida"]
    kept = _rejected(c.games[0])
    weird = ["bid", "resign"] if kind == "list" else {"bid": "resign"}
    ishida.send(f"[seki g] {kind}", _turn(c, "ishida", [{"type": weird}]))
    out = c.robot()
    assert "refused: g:" in out and "type" in out
    assert len(_rejected(c.games[0])) == len(kept) + 1
    (reply,) = _replies(ishida.read_mail())
    (note,) = _notes(reply)
    reasons = notes.open_note(_definition(c), note, c.people["ishida"], "note")
    assert "actions[0]: type" in " ".join(reasons)
    assert GameDir(c.games[0]).last_seq() == 1


POISON = "\\ud800"  # in charset unicode_escape: a lone surrogate, which is no character


def _poisoned(sender: str, to: str, document: str) -> bytes:
    """A mail whose text part, in charset unicode_escape, decodes to a lone surrogate
    inside a seki document (a modified client may name any charset)."""
    return (f"From: {address(sender)}\r\nTo: {address(to)}\r\n"
            f"Subject: [seki g] poison\r\nMIME-Version: 1.0\r\n"
            "Content-Type: text/plain; charset=unicode_escape\r\n\r\n"
            + document.replace("\n", "\r\n")).encode()  # fmt: skip


def test_a_mail_that_decodes_to_no_text_is_kept_refused_and_answered(mailgame):
    """A signed turn mailed in a charset that decodes to a lone surrogate: the document
    is read as text with it replaced, so it reaches the referee, fails its signature, is
    kept in rejected/, and its sender is told (the old robot's YAML reader refused it
    before the referee saw it, and nothing was kept)."""
    c = mailgame
    ishida = c.players["ishida"]
    bid = _turn(c, "ishida", [{"type": "bid", "card": "date double"}])
    kept = _rejected(c.games[0])
    _send_raw(c, "ishida", _poisoned("ishida", "referee", bid.replace("side: ishida",
                                     f"side: ishida  # {POISON}")))  # fmt: skip
    out = c.robot()  # exits 0: no internal error
    assert "quarantined" not in out
    assert "refused: g:" in out and len(_rejected(c.games[0])) == len(kept) + 1
    (reply,) = _replies(ishida.read_mail())
    assert "was refused" in reply.get_body(("plain",)).get_content()
    assert GameDir(c.games[0]).last_seq() == 1


def test_a_mail_that_decodes_to_no_text_never_stops_a_players_mail(mailgame, monkeypatch):
    """The opponent mails Tokugawa a 'note' whose text decodes to a lone surrogate. The
    player's mail collection (what `seki play` runs first) used to die on it with
    UnicodeEncodeError, leaving it in the inbox to kill every later run; now the text
    holds no surrogate and the collection goes on, run after run."""
    c = mailgame
    home = c.base / "home-tokugawa"
    write_identity(home, c.people["tokugawa"])
    (home / "games").mkdir(exist_ok=True)
    shutil.copy(c.games[0] / "game.txt", home / "games" / "g.txt")
    (home / "mail.toml").write_text(player_mail_settings(c.servers, "tokugawa"))
    monkeypatch.setenv("SEKI_HOME", str(home))
    monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SEKI_SMTP_PASSWORD", PASSWORD)
    note = (f"-----BEGIN SEKI DOCUMENT-----\nformat: seki-note/2\ngame: g\n# {POISON}\n"
            "-----BEGIN SEKI SIGNATURE-----\n-----END SEKI SIGNATURE-----\n")  # fmt: skip
    _send_raw(c, "ishida", _poisoned("ishida", "tokugawa", note), to="tokugawa")
    settings = mailbox.settings(home / "mail.toml")
    _, fetched, _ = mailbox.collect(settings)
    assert fetched >= 1
    assert not list((home / "mail" / "inbox").glob("*.eml"))
    mailbox.collect(settings)  # and the next run finds nothing to stop on


def _rejected(root: Path) -> list[Path]:
    folder = root / "rejected"
    return sorted(folder.iterdir()) if folder.is_dir() else []


# What the referee reads from its own game directory (which may be a received archive).


@pytest.mark.parametrize("kind", ["list", "mapping"])
def test_an_action_type_that_is_not_text_is_refused_by_adjudicate(tmp_path, kind):
    """`seki adjudicate` on a signed turn whose action type is a list or a mapping: it
    used to end in an internal error (exit 70) with nothing kept; now a named refusal,
    the file kept in rejected/, the game as it was."""
    ref, alice, _ = _started(tmp_path)
    identity = read_identity(identity_path(alice, "alice"))
    definition = game.load(GameDir(tmp_path / "g"))
    weird = ["bid", "resign"] if kind == "list" else {"bid": "resign"}
    body = {"format": "seki-turn/1", "game": "g", "definition": definition.hash,
            "side": "ishida", "answers": 1, "actions": [{"type": weird}]}  # fmt: skip
    (tmp_path / "weird.txt").write_text(signing.sign(docs.dump(body), identity))
    done = seki(ref, "adjudicate", "g", "weird.txt", "--key", "ref", cwd=tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 1 and "internal error" not in said, said
    assert "weird.txt: actions[0]: type: missing or not str" in said
    assert len(_rejected(tmp_path / "g")) == 1
    assert "awaiting Ishida: bid" in ok(seki(ref, "status", "g", cwd=tmp_path))


def test_a_game_txt_that_is_not_utf8_is_refused_by_name(tmp_path):
    """A game.txt holding bytes that are not UTF-8: each command that reads it says so,
    naming the file (it used to be an internal error in `seki verify`, and a codec's words
    naming no file elsewhere)."""
    ref, _, _ = _started(tmp_path)
    definition = tmp_path / "g" / "game.txt"
    definition.write_bytes(definition.read_bytes().replace(b"game: g", b"game: g\xff", 1))
    (tmp_path / "mail.toml").write_text('from = "ref@seki.test"\n')
    for args in (
        ["status", "g"],
        ["verify", "g"],
        ["adjudicate", "g", "join-g-ishida.txt", "--key", "ref"],
        ["referee", "run", "spool", "g", "--key", "ref", "--mail-config", "mail.toml",
         "--no-send"],
    ):  # fmt: skip
        done = seki(ref, *args, cwd=tmp_path)
        said = done.stdout + done.stderr
        assert done.returncode == (3 if args[0] == "verify" else 1), (args, said)  # 3: no verify
        assert "game.txt: not UTF-8 text" in said and "internal error" not in said, (args, said)


@pytest.mark.skipif(os.name != "posix", reason="the memory limit is set with setrlimit")
def test_a_game_txt_of_gigabytes_is_not_read_whole(tmp_path):
    """A 3 GB game.txt (a sparse file: free to make) in a game directory: every command
    reads no more of it than a document may hold, and refuses it by name. Under a 1.5 GB
    memory limit the old commands died of MemoryError (exit 70)."""
    ref, _, _ = _started(tmp_path)
    with open(tmp_path / "g" / "game.txt", "r+b") as f:
        f.truncate(3_000_000_000)

    def limited() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    env = {**os.environ, "SEKI_HOME": str(ref)}
    for args in (
        ["status", "g"],
        ["verify", "g"],
        ["adjudicate", "g", "join-g-ishida.txt", "--key", "ref"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "sekigahara_pbem", *args], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=120, preexec_fn=limited,
        )  # fmt: skip
        said = done.stdout + done.stderr
        assert done.returncode == (3 if args[0] == "verify" else 1), (args, said)  # 3: no verify
        assert "game.txt: larger than" in said, (args, said)
