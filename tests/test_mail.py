"""Mail pieces against real files and a real SMTP server on 127.0.0.1: finding turn files in
mail however they were sent, never answering robots, the settings' checks, collecting from
a maildir and an mbox once, and delivery that retries and never loses a message."""

from __future__ import annotations

import mailbox
import quopri
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from mailservers import PASSWORD, SmtpServer, free_port, make_certificates

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.mail import incoming as mail_in
from sekigahara_pbem.mail import settings as mail_config
from sekigahara_pbem.mail.outgoing import Spool, message, send_outbox
from sekigahara_pbem.refusal import Refusal

KEY = generate("ishida")
SIGNED = signing.sign("format: seki-turn/1\ngame: g\nside: ishida\n", KEY)


def _mail(body: str = "hi", attach: str | None = None, **headers) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = headers.pop("sender", "anna@example.org")
    msg["To"] = "referee@example.org"
    msg["Subject"] = headers.pop("subject", "[seki g] my move")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    if attach is not None:
        msg.add_attachment(attach.encode(), maintype="application", subtype="octet-stream",
                           filename="turn.txt")  # fmt: skip
    return msg


def test_documents_found_attached_pasted_and_mangled():
    assert mail_in.documents(_mail(attach=SIGNED)) == [SIGNED]
    pasted = _mail("Here it is:\n\n" + SIGNED + "\nbye")
    assert mail_in.documents(pasted) == [SIGNED]
    crlf = SIGNED.replace("\n", "  \r\n")  # trailing spaces and CRLF survive the signature
    raw = quopri.encodestring(crlf.encode())
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg.set_payload(raw)
    msg["Content-Transfer-Encoding"] = "quoted-printable"
    msg["Content-Type"] = "text/plain; charset=no-such-charset"
    [found] = mail_in.documents(msg)
    assert signing.verify(found, [KEY.public]).signer == KEY.public
    assert mail_in.documents(_mail("no document here")) == []
    both = _mail(SIGNED, attach=SIGNED)
    assert mail_in.documents(both) == [SIGNED]  # the same document once


@pytest.mark.parametrize(
    "headers",
    [{"Auto_Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"sender": "MAILER-DAEMON@x.org"},
     {"sender": ""}],
)  # fmt: skip
def test_robots_and_bounces_are_never_answered(headers):
    assert mail_in.automatic(_mail(**headers))
    assert not mail_in.automatic(_mail())


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mail.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("[smtp]\nhost='x'\n", "from"),
        ("from='a@b.org'\n[smtp]\nhost='mail.example.org'\nsecurity='none'\n", "only on 127"),
        ("from='a@b.org'\n[smtp]\nhost='x'\nsecurity='ssl3'\n", "security"),
        ("from='a@b.org'\n[smtp]\nhost='x'\npassword='p'\npassword_command='pass'\n", "one of"),
        ("from='a@b.org'\n[imap]\nhost='x'\npassword_command='pass \"open'\n", "a command"),
        ("from='a@b.org'\n[imap]\nhost='x'\ntoken_command=['oauth2ms']\n", "OAuth2"),
        ("from='a@b.org'\n[imap]\nhost='x'\nfolder='a'\nmailbox='b'\n", "not both"),
        ("from='a@b.org'\n[smtp]\nhost='x'\nport=70000\n", "port"),
        ("from='not an address'\n", "not a mail address"),
        ("from = \n", "TOML"),
    ],
)
def test_mail_settings_errors_name_the_field(tmp_path, text, error):
    with pytest.raises(Refusal, match=error):
        mail_config.load(_config(tmp_path, text))


def test_mail_settings_never_from_a_game_directory(tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    path = game / "mail.toml"
    path.write_text("from='a@b.org'\n")
    with pytest.raises(Refusal, match="game directory"):
        mail_config.load(path, [game])


def test_maildir_and_mbox_are_collected_once(tmp_path):
    spool = Spool(tmp_path / "spool")
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(_mail(attach=SIGNED).as_bytes())
    box.add(_mail("second").as_bytes())
    assert mail_in.from_maildir(spool, tmp_path / "Maildir") == 2
    assert mail_in.from_maildir(spool, tmp_path / "Maildir") == 0  # marked seen
    assert all("S" in m.get_flags() for m in box)
    mbox = mailbox.mbox(tmp_path / "box.mbox")
    mbox.add(_mail("third").as_bytes())
    mbox.flush()
    assert mail_in.from_mbox(spool, tmp_path / "box.mbox") == 1
    assert mail_in.from_mbox(spool, tmp_path / "box.mbox") == 0  # by content
    assert len(list(spool.folder("inbox").glob("*.eml"))) == 3
    with pytest.raises(Refusal, match="not a maildir"):
        mail_in.from_maildir(spool, tmp_path)


@pytest.fixture
def smtp(tmp_path):
    certs = make_certificates(tmp_path / "certs")
    with SmtpServer(certs, tmp_path / "delivered", ["anna", "referee"]) as server:
        yield server, certs


def _settings(server, certs, attempts=3) -> mail_config.MailSettings:
    smtp = mail_config.Server("127.0.0.1", server.port, "starttls", "referee", PASSWORD,
                              str(certs.ca))  # fmt: skip
    return mail_config.MailSettings("referee@seki.test", smtp, None, attempts, 0.0)


def _queue(spool: Spool, name: str, to: str = "anna@seki.test") -> None:
    spool.queue(name, message("referee@seki.test", to, "[seki g] test", "body", [("p.txt", "x")]))


def test_delivery_retries_a_transient_failure(tmp_path, smtp):
    server, certs = smtp
    spool = Spool(tmp_path / "spool")
    _queue(spool, "one")
    server.handler.refuse_next = 2  # two 451 answers, then it works
    result = send_outbox(spool, _settings(server, certs), sleep=lambda s: None)
    assert result.sent == ["one"] and not result.failed
    assert (spool.folder("sent") / "one.eml").is_file()
    [raw] = server.handler.received
    assert b"Auto-Submitted: auto-generated" in raw and b'filename="p.txt"' in raw


def test_undeliverable_mail_stays_queued_with_its_error(tmp_path, smtp):
    server, certs = smtp
    spool = Spool(tmp_path / "spool")
    _queue(spool, "stranger", to="nobody@seki.test")
    _queue(spool, "anna")
    result = send_outbox(spool, _settings(server, certs), sleep=lambda s: None)
    assert result.sent == ["anna"] and "stranger" in result.failed
    assert (spool.folder("outbox") / "stranger.eml").is_file()
    assert "550" in (spool.folder("outbox") / "stranger.error").read_text()
    _queue(spool, "later")
    gone = _settings(server, certs, attempts=2)  # no server there: nothing is lost
    gone = mail_config.MailSettings(gone.sender, replace(gone.smtp, port=free_port()), None, 2, 0)
    result = send_outbox(spool, gone, sleep=lambda s: None)
    assert set(result.failed) == {"stranger", "later"} and not result.sent
    assert "ConnectionRefused" in result.failed["later"]


def test_cli_mail_send_reports_failures_and_exits_75(tmp_path, smtp):
    server, certs = smtp
    spool = Spool(tmp_path / "spool")
    _queue(spool, "stranger", to="nobody@seki.test")
    config = _config(tmp_path, (
        "from='referee@seki.test'\n[smtp]\nhost='127.0.0.1'\n"
        f"port={server.port}\nuser='referee'\nca_file='{certs.ca}'\n[retry]\ndelay_seconds=0\n"
    ))  # fmt: skip
    result = CliRunner().invoke(
        app, ["mail", "send", str(spool.root), "--mail-config", str(config)],
        env={"SEKI_SMTP_PASSWORD": PASSWORD},
    )  # fmt: skip
    assert result.exit_code == 75 and "NOT SENT" in result.stderr and "550" in result.stderr
    assert result.stdout == "" and "sent 0 messages" in result.stderr  # mail is its product
    bad = CliRunner().invoke(app, ["mail", "send", str(spool.root), "--mail-config", "/nope"])
    assert bad.exit_code == 74  # an OS error: the settings file cannot be read
    assert "/nope: No such file" in bad.output and "Traceback" not in bad.output
