"""Issue 31: turn files through real mail clients. A corpus of the mails clients really
send (tests/mailcorpus.py: attached, pasted, format=flowed, quoted, HTML, forwarded,
re-wrapped, re-encoded) carries a signed turn file; every faithful copy is found and
its signature picks the reading, and the robot (`seki referee run`, on a maildir and on
the real SMTP and IMAP servers) takes the turn and answers once, with a receipt. An
altered copy is refused whatever reading is tried; a copy sent again is "already in";
a mail over the size limit gets a line saying so, and a stranger's gets nothing."""

from __future__ import annotations

import mailbox
import smtplib
from email import message_from_bytes
from email.policy import default
from pathlib import Path

import mailcorpus
import pytest
from mailplay import Campaign, address
from mailservers import PASSWORD
from test_hostile_mail import ALICE, REFEREE, _started

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.mail import incoming as mail_in
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol.store import GameDir

KEY, REF = generate("ishida"), generate("referee")
BODY = {"format": "seki-turn/1", "game": "g", "definition": "ab" * 32, "side": "ishida",
        "answers": 1, "actions": [
            {"type": "move", "from": "osaka", "to": "kyoto",
             "blocks": ["ishida-1a", "ukita-2a", "mori-3b", "kobayakawa-4c"]},
            {"type": "note",
             "text": "a remark long enough that a client wraps it somewhere"}]}  # fmt: skip
DOC = signing.sign(docs.dump(BODY), KEY)
PACKET = signing.sign("format: seki-packet/1\ngame: g\nseq: 1\n", REF)
CORPUS = mailcorpus.shapes(DOC, PACKET)


def _picked(raw: bytes) -> list[str]:
    """The readings of a mail's documents that the player's key checks."""
    found = mail_in.found(mail_in.parse(raw))
    return [
        t for t, k in (mail_in.pick(f, [KEY.public, REF.public]) for f in found) if k == KEY.public
    ]


def test_the_corpus_has_every_client_shape():
    assert len(CORPUS) >= 20
    assert len(mailcorpus.too_large(DOC)) > mail_in.MAX_MESSAGE


@pytest.mark.parametrize("shape", sorted(CORPUS))
def test_every_faithful_copy_is_found_and_its_signature_picks_it(shape):
    """Before: flowed, quoted, HTML, nbsp and re-wrapped copies came out as texts whose
    signature failed ("bad signature", "quoted document has an unquoted line")."""
    picked = _picked(CORPUS[shape])
    assert picked, shape
    for text in picked:  # the one body the player signed, nothing else
        assert signing.verify(text, [KEY.public]).body == signing.split(DOC)[0]
    assert len({mail_in.signature_of(t) for t in picked}) == 1


ALTERED = ["thunderbird-flowed-pasted", "apple-flowed-delsp", "outlook-html-pasted",
           "rewrapped-66", "nbsp-pasted"]  # fmt: skip


@pytest.mark.parametrize("shape", ALTERED)
def test_an_altered_copy_is_refused_whatever_reading_is_tried(shape):
    """One word changed after the client's changes (un-flowing, HTML, wrapping): no
    reading verifies, and the text as it came is what the referee sees and refuses."""
    raw = CORPUS[shape].replace(b"kyoto", b"osaka").replace(b"ky=\r\noto", b"osaka")
    assert b"kyoto" not in raw
    found = mail_in.found(mail_in.parse(raw))
    assert found
    for document in found:
        text, key = mail_in.pick(document, [KEY.public, REF.public])
        assert key is None and text == document.readings[0]
        for reading in document.readings:
            with pytest.raises(signing.SignatureError):
                signing.verify(reading, [KEY.public])


def test_unsigned_text_around_a_document_is_never_part_of_it():
    """The greeting, a signature block, a second paste: the reading is the document."""
    (text,) = _picked(CORPUS["mutt-inline"])
    assert "Anna" not in text and "Hi referee" not in text


# -- the robot on a maildir --------------------------------------------------------------


def _robot(seki, tmp_path: Path, game: Path, raws: list[bytes], now: str) -> str:
    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    for raw in raws:
        box.add(raw)
    config = tmp_path / "mail.toml"
    config.write_text(f'from = "{REFEREE}"\n')
    return seki("ref", "referee", "run", str(tmp_path / "spool"), str(game), "--key", "ref",
                "--maildir", str(tmp_path / "maildir"), "--mail-config", str(config),
                "--no-send", "--now", now)  # fmt: skip


def _replies(tmp_path: Path) -> dict[str, str]:
    out = {}
    for path in sorted((tmp_path / "spool" / "outbox").glob("reply-*.eml")):
        msg = message_from_bytes(path.read_bytes(), policy=default)
        out[path.stem] = str(msg["To"]) + "\n" + msg.get_body(("plain",)).get_content()
    return out


def _as(sender: str, raw: bytes) -> bytes:
    return raw.replace(mailcorpus.FROM.encode(), sender.encode())


def test_the_robot_takes_each_shape_answers_once_and_says_already_in(tmp_path):
    """A multipart/alternative mail with the turn pasted and the packet quoted below it:
    before, the turn was taken and the player told "could not use it, fix the file" (the
    HTML copy and the packet were refused); now one reply, a receipt. The same turn sent
    again in another client's shape is "already in (record 2)", not refused; a 6 MB mail
    gets a line saying so, a stranger's nothing."""
    seki, game = _started(tmp_path)
    turn = tmp_path / "turn.txt"
    seki("alice", "play", str(game / "packets" / "000001-ishida.txt"), "--key", "alice",
         "--choose", "1", "--out", str(turn))  # fmt: skip
    doc = turn.read_text()
    packet = (game / "packets" / "000001-ishida.txt").read_text()
    corpus = mailcorpus.shapes(doc, packet)
    gmail = corpus["gmail-alternative-pasted"]
    quoted = corpus["packet-quoted-below"]
    out = _robot(seki, tmp_path, game, [_as(ALICE, quoted)], "2026-11-22T12:00:00Z")
    assert "accepted: g: record 2" in out and "refused" not in out, out
    first = _replies(tmp_path)
    (reply,) = first.values()
    assert reply.startswith(ALICE)
    assert "record 2: your turn is in" in reply and "next: " in reply, reply
    assert "could not use" not in reply and "fix" not in reply, reply
    again = [_as(ALICE, gmail), _as(ALICE, corpus["thunderbird-flowed-pasted"])]
    again.append(_as(ALICE, mailcorpus.too_large(doc)))
    again.append(_as("mallory@evil.test", mailcorpus.too_large(doc)))
    out = _robot(seki, tmp_path, game, again, "2026-11-22T13:00:00Z")
    assert "refused" not in out and GameDir(game).last_seq() == 2, out
    # the outbox's names say nothing of the order: the second run's replies are the new ones
    replies = [r for name, r in _replies(tmp_path).items() if name not in first]
    assert len(replies) == 3, replies  # the stranger is not answered
    assert all(r.startswith(ALICE) for r in replies)
    assert sum("already in (record 2)" in r for r in replies) == 2, replies
    assert sum("more than the 5.0 MB" in r and "could not use" in r for r in replies) == 1
    assert not list(game.glob("rejected/*"))  # nothing refused, so nothing kept as refused


# -- the robot against the real SMTP and IMAP servers ---------------------------------


@pytest.fixture(scope="module")
def mailgame(servers, tmp_path_factory):
    c = Campaign(tmp_path_factory.mktemp("clients"), servers)
    c.new_game("g")
    c.round()
    c.round()
    c.deliver()
    assert GameDir(c.games[0]).last_seq() == 1
    return c


SENT: dict[str, str] = {}  # the turn Ishida sent first, sent again in the other shapes


def _send_raw(c: Campaign, side: str, raw: bytes) -> None:
    smtp = smtplib.SMTP("127.0.0.1", c.servers.smtp.port, timeout=30)
    smtp.starttls(context=c.servers.tls)
    smtp.login(side, PASSWORD)
    smtp.sendmail(address(side), [address("referee")], raw)
    smtp.quit()


@pytest.mark.parametrize("shape", ["thunderbird-flowed-pasted", "outlook-html-pasted",
                                   "apple-flowed-delsp", "rewrapped-66"])  # fmt: skip
def test_a_turn_through_a_client_is_taken_by_the_robot_over_smtp_and_imap(mailgame, shape):
    """Each client's copy of Ishida's first answer, mailed through the real SMTP server
    into the referee's IMAP box: the robot takes it (record 2) and Ishida reads one
    receipt; the other shapes, sent after it, are "already in"."""
    c = mailgame
    ishida = c.players["ishida"]
    seq, packet = ishida.latest["g"]
    text = ishida.bots["g"].answer(packet, "packet") if packet else SENT["ishida"]
    SENT["ishida"] = text
    ishida.latest["g"] = (seq, "")
    raw = mailcorpus.shapes(text, PACKET)[shape].replace(
        mailcorpus.FROM.encode(), address("ishida").encode()
    )
    _send_raw(c, "ishida", raw)
    out = c.robot()
    assert "refused" not in out, out
    assert GameDir(c.games[0]).last_seq() >= 2
    replies = [m for m in ishida.read_mail() if str(m.get("Auto-Submitted")) == "auto-replied"]
    (reply,) = replies
    body = reply.get_body(("plain",)).get_content()
    assert "your turn is in" in body or "already in (record 2)" in body, body
    assert "could not use" not in body
