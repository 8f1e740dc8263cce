"""The robot never wedges (issues 11 and 19): a corpus of hostile mails — 1,200 nested
multiparts, encoded headers that decode to CR/LF (an injected Bcc), a From display name
with a line feed, a text part in charset `idna`, huge headers, bad encodings, thousands of
attachments, garbage — sits in the maildir before and after a player's real turn file.
One `seki referee run` pass reads them all: it never raises, sets the unreadable ones
aside with the reason, answers nobody with an injected header, and accepts the turn."""

from __future__ import annotations

import base64
import mailbox
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from click.testing import CliRunner
from reading import hand_in

from sekigahara_pbem.cli import app

REFEREE, ALICE = "ref@seki.test", "alice@seki.test"


def _nested(depth: int) -> bytes:
    body = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'
                   for i in range(depth))  # fmt: skip
    body += "Content-Type: text/plain\r\n\r\nhello\r\n"
    body += "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    return f"From: {ALICE}\r\nSubject: [seki g] deep\r\nMIME-Version: 1.0\r\n{body}".encode()


def _attachments(count: int) -> bytes:
    parts = "".join(
        f'--z\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="{i}.txt"'
        f"\r\n\r\nnote {i}\r\n"
        for i in range(count)
    )
    head = f"From: {ALICE}\r\nSubject: [seki g] many\r\nMIME-Version: 1.0\r\n"
    return (head + f'Content-Type: multipart/mixed; boundary="z"\r\n\r\n{parts}--z--\r\n').encode()


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


INJECTED = _b64("[seki g] hi\r\nBcc: x@y.z")
HOSTILE = [
    _nested(1200),
    f"From: {ALICE}\r\nSubject: =?utf-8?b?{INJECTED}?=\r\n\r\nhello\r\n".encode(),
    (f"From: =?utf-8?b?{_b64('Alice' + chr(10) + 'Bcc: x@y.z')}?= <{ALICE}>\r\n"
     "Subject: [seki g] name\r\n\r\nhello\r\n").encode(),
    (f'From: {ALICE}\r\nSubject: [seki g] idna\r\nContent-Type: text/plain; charset="idna"'
     "\r\n\r\nhello\r\n").encode(),
    f"From: {ALICE}\r\nSubject: [seki g] {'x' * 200_000}\r\n\r\nbig\r\n".encode(),
    (f"From: {ALICE}\r\nSubject: [seki g] b64\r\nContent-Transfer-Encoding: base64\r\n"
     "Content-Type: text/plain; charset=x-unknown\r\n\r\n!!!not base64!!!\r\n").encode(),
    f"From: {ALICE}\r\nSubject: [seki g] bytes\r\n\r\n\xff\xfe\x00 caf\xe9".encode("latin-1"),
    _attachments(3000),
    b"\x00\x01\x02 not a mail at all \xff" * 100,
    b"",
]  # fmt: skip


def _started(tmp_path: Path):
    """A game with mail addresses, both players joined: the CLI runner and the game."""
    runner = CliRunner()

    def seki(who: str, *args: str, code: int = 0) -> str:
        result = runner.invoke(app, list(args), env={"SEKI_HOME": str(tmp_path / who)})
        assert result.exit_code == code, result.output
        return result.output

    seki("ref", "keys", "new", "ref")
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(seki(name, "keys", "new", name))
    game = tmp_path / "g"
    seki("ref", "game", "new", str(game), "--key", "ref", "--ishida", str(tmp_path / "alice.pub"),
         "--tokugawa", str(tmp_path / "bob.pub"), "--email", f"referee={REFEREE}",
         "--email", f"ishida={ALICE}", "--email", "tokugawa=bob@seki.test")  # fmt: skip
    joins = [tmp_path / "ja.txt", tmp_path / "jb.txt"]
    seki("alice", "join", str(game / "game.txt"), "--key", "alice", "--out", str(joins[0]))
    seki("bob", "join", str(game / "game.txt"), "--key", "bob", "--out", str(joins[1]))
    seki("ref", "adjudicate", str(game), *map(str, joins), "--key", "ref")
    seeds = [tmp_path / "sa.txt", tmp_path / "sb.txt"]
    seki("alice", "join", str(joins[1]), "--key", "alice", "--out", str(seeds[0]))
    seki("bob", "join", str(joins[0]), "--key", "bob", "--out", str(seeds[1]))
    seki("ref", "adjudicate", str(game), *map(str, seeds), "--key", "ref")
    return seki, game


def test_one_pass_survives_every_hostile_mail_and_accepts_the_turn(tmp_path):
    seki, game = _started(tmp_path)
    turn = tmp_path / "turn.txt"
    seki("alice", "play", str(game / "packets" / "000001-ishida.txt"), "--key", "alice",
         "--choose", "1", "--out", str(turn))  # fmt: skip
    legit = (f"From: {ALICE}\r\nTo: {REFEREE}\r\nSubject: [seki g] my bid\r\n\r\n"
             + turn.read_text().replace("\n", "\r\n")).encode()  # fmt: skip
    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    for raw in [*HOSTILE[:5], legit, *HOSTILE[5:]]:
        box.add(raw)
    config = tmp_path / "mail.toml"
    config.write_text(f'from = "{REFEREE}"\n')
    out = seki("ref", "referee", "run", str(tmp_path / "spool"), str(game), "--key", "ref",
               "--maildir", str(tmp_path / "maildir"), "--mail-config", str(config),
               "--no-send", "--now", "2026-11-22T12:00:00Z")  # fmt: skip
    assert "accepted: g: record 2" in out, out
    quarantine = tmp_path / "spool" / "quarantine"
    reasons = [p.read_text() for p in quarantine.glob("*.reason")]
    assert any("nested multipart" in r for r in reasons), reasons
    replies = list((tmp_path / "spool" / "outbox").glob("reply-*.eml"))
    assert replies
    for path in replies:
        reply = message_from_bytes(path.read_bytes(), policy=default)
        assert "Bcc" not in reply and "\n" not in str(reply["Subject"])
        assert str(reply["To"]) == ALICE
    again = seki("ref", "referee", "run", str(tmp_path / "spool"), str(game), "--key", "ref",
                 "--maildir", str(tmp_path / "maildir"), "--mail-config", str(config),
                 "--no-send", "--now", "2026-11-22T13:00:00Z")  # fmt: skip
    assert "collected 0 messages" in again
    assert not list((tmp_path / "spool" / "inbox").glob("*.eml"))


def test_a_refusal_quoting_the_hand_goes_only_into_a_note_sealed_to_the_sender(tmp_path):
    """Issue 19: the clear reply names no card of the sender's hand; the attached note,
    sealed to the sender, opens with its key only (`seki view NOTE`) and holds the reason."""
    from sekigahara_pbem.crypto import signing
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.protocol import turns
    from sekigahara_pbem.protocol.game import load
    from sekigahara_pbem.protocol.store import GameDir

    seki, game = _started(tmp_path)
    alice = read_identity(tmp_path / "alice" / "alice.identity")
    bid = [{"type": "bid", "card": "date double"}]
    body = turns.body(load(GameDir(game)), "ishida", 1, bid)
    shown = seki("alice", "view", str(game / "packets" / "000001-ishida.txt"), "--key", "alice")
    hand = hand_in(shown)
    assert hand
    mail = f"From: {ALICE}\r\nSubject: [seki g] bid\r\n\r\n{signing.sign(body, alice)}"
    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    box.add(mail.replace("\n", "\r\n").encode())
    config = tmp_path / "mail.toml"
    config.write_text(f'from = "{REFEREE}"\n')
    seki("ref", "referee", "run", str(tmp_path / "spool"), str(game), "--key", "ref",
         "--maildir", str(tmp_path / "maildir"), "--mail-config", str(config), "--no-send",
         "--now", "2026-11-22T12:00:00Z")  # fmt: skip
    (reply_path,) = (tmp_path / "spool" / "outbox").glob("reply-*.eml")
    reply = message_from_bytes(reply_path.read_bytes(), policy=default)
    clear = reply.get_body(("plain",)).get_content()
    assert "refused" in clear and "seki view note-g-1-ishida.txt" in clear
    assert not [card for card in hand if card in clear], clear
    (note,) = [p for p in reply.iter_attachments() if p.get_filename() == "note-g-1-ishida.txt"]
    assert not [card for card in hand if card in note.get_content()]
    path = tmp_path / "note.txt"
    path.write_text(note.get_content())
    opened = seki("alice", "view", str(path), "--key", "alice")
    assert "The referee refused your file" in opened and "you hold" in opened
    assert any(card in opened for card in hand)
    assert "not for your key" in seki("bob", "view", str(path), "--key", "bob", code=1)
