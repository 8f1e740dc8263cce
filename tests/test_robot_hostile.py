"""The robot never wedges: hostile mails are quarantined with their reason, the pass goes
on, and every later pass runs clean (issue 11 "The robot must never wedge", issue 19)."""

from __future__ import annotations

import base64
import zlib

import pytest

from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.mail import incoming as mail_in
from sekigahara_pbem.mail import robot
from sekigahara_pbem.mail.outgoing import Spool
from sekigahara_pbem.mail.settings import MailSettings
from sekigahara_pbem.reports import mail_report

NOW = "2026-11-22T10:00:00Z"
HEAD = b"From: a@b.example\r\nTo: ref@seki.example\r\n"


def _nested(depth: int) -> bytes:
    body = b"x\r\n"
    for i in range(depth):
        b = f"b{i}".encode()
        body = (b"Content-Type: multipart/mixed; boundary=" + b + b"\r\n\r\n--" + b + b"\r\n"
                + body + b"\r\n--" + b + b"--\r\n")  # fmt: skip
    return HEAD + b"Subject: [seki g1] deep\r\n" + body


def _attachments(count: int) -> bytes:
    parts = b"".join(
        b"--z\r\nContent-Type: text/plain\r\n\r\n" + str(i).encode() + b"\r\n" for i in range(count)
    )
    return (
        HEAD
        + b"Subject: [seki g1] many\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n"
        + parts
        + b"--z--\r\n"
    )


def _bomb() -> bytes:
    packed = base64.encodebytes(zlib.compress(b"\0" * 2_000_000))
    return (HEAD + b"Subject: [seki g1] bomb\r\nContent-Type: application/zlib\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n" + packed)  # fmt: skip


HOSTILE = {
    # the three ~120-byte wedges of issue 19
    "subject-crlf": HEAD
    + b"Subject: =?utf-8?b?"
    + base64.b64encode(b"[seki g1] hi\r\nBcc: x@y.example")
    + b"?=\r\n\r\nhi\r\n",
    "from-linefeed": b"From: =?utf-8?b?"
    + base64.b64encode(b"Eve\nBcc: x@y.example")
    + b"?= <e@b.example>\r\nSubject: [seki g1] hi\r\n\r\nhi\r\n",
    "charset-idna": HEAD
    + b'Subject: [seki g1] hi\r\nContent-Type: text/plain; charset="idna"\r\n\r\nhi\r\n',
    # issue 11's corpus
    "deep-nesting": _nested(1200),
    "huge-header": HEAD + b"Subject: [seki g1] " + b"A" * 300_000 + b"\r\n\r\nhi\r\n",
    "bad-base64": HEAD
    + b"Subject: [seki g1] hi\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!=\r\n",
    "bad-charset": HEAD
    + b'Subject: =?x-unknown?q?hi?=\r\nContent-Type: text/plain; charset="utf-7"\r\n\r\n+ZZZ-\r\n',
    "compressed-bomb-like": _bomb(),
    "thousands-of-attachments": _attachments(3000),
}


@pytest.fixture
def settings() -> MailSettings:
    return MailSettings(sender="referee@seki.example", smtp=None, imap=None)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_mail_never_stops_a_pass(tmp_path, settings, name):
    spool = Spool(tmp_path / "spool")
    ref = generate("referee")
    good = HEAD + b"Subject: [seki g1] hello\r\n\r\nno document here\r\n"
    fetch = lambda s: mail_in.save(s, HOSTILE[name]) + mail_in.save(s, good)  # noqa: E731
    report = robot.run(tmp_path / "spool", [], ref, settings, NOW, fetch, send=False,
                       public_report=mail_report)  # fmt: skip
    assert not report.errors
    assert not list(spool.folder("inbox").iterdir())  # every message left the inbox
    # the good message after the hostile one was still read (and, from a stranger, not
    # answered: tests/test_mailbox_squatting.py)
    assert any(line.startswith("00000002-") for line in report.ignored), report.ignored
    for reply in spool.folder("outbox").iterdir():
        head = reply.read_bytes().split(b"\r\n\r\n")[0]
        assert not [line for line in head.split(b"\r\n") if line.lower().startswith(b"bcc")]
    # a second pass has nothing left to choke on
    again = robot.run(tmp_path / "spool", [], ref, settings, NOW, None, send=False,
                      public_report=mail_report)  # fmt: skip
    assert not again.errors and not again.quarantined


def test_deep_nesting_is_quarantined_with_its_reason(tmp_path, settings):
    spool = Spool(tmp_path / "spool")
    fetch = lambda s: mail_in.save(s, HOSTILE["deep-nesting"])  # noqa: E731
    report = robot.run(tmp_path / "spool", [], generate("referee"), settings, NOW, fetch,
                       send=False, public_report=mail_report)  # fmt: skip
    assert len(report.quarantined) == 1 and "nest" in report.quarantined[0]
    reasons = list(spool.folder("quarantine").glob("*.reason"))
    assert len(reasons) == 1 and "nest" in reasons[0].read_text()
    assert len(list(spool.folder("quarantine").glob("*.eml"))) == 1


def test_headers_of_strangers_are_cleaned():
    msg = mail_in.parse(HOSTILE["subject-crlf"])
    assert "\n" not in mail_in.header(msg, "Subject") and "\r" not in mail_in.header(msg, "Subject")
    assert mail_in.sender(mail_in.parse(HOSTILE["from-linefeed"])) in ("", "e@b.example")
    assert mail_in.documents(mail_in.parse(HOSTILE["charset-idna"])) == []
