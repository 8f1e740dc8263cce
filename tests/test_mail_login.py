"""Issue 31: the player's own mailbox. `seki play` reads only seki's mail from the
player's IMAP folder and changes no flag there (dovecot on 127.0.0.1); a password comes
from a command, the file, the environment or a real keyring backend; an OAuth2 token
from a command reaches an XOAUTH2 exchange (a small IMAP server of this file's own, and
aiosmtpd for SMTP)."""

from __future__ import annotations

import base64
import imaplib
import json
import mailbox as mailbox_lib
import os
import re
import socket
import subprocess
import sys
import threading
from email.utils import make_msgid
from pathlib import Path

import keyring
import pytest
from keyrings.alt.file import PlaintextKeyring
from mailplay import player_mail_settings
from mailservers import PASSWORD

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.mail import incoming as mail_in
from sekigahara_pbem.mail import settings as mail_config
from sekigahara_pbem.mail.login import login
from sekigahara_pbem.mail.outgoing import Spool, message, send_outbox
from sekigahara_pbem.play import mailbox
from sekigahara_pbem.refusal import UserError

KEY = generate("ishida")
DOCUMENT = signing.sign("format: seki-turn/1\ngame: g\nside: ishida\n", KEY)
PASTED = signing.sign("format: seki-turn/1\ngame: h\nside: ishida\n", KEY)
PRINT = [sys.executable, "-c"]


def _imap(servers, user: str = "ishida") -> imaplib.IMAP4_SSL:
    imap = imaplib.IMAP4_SSL("127.0.0.1", servers.dovecot.imaps_port, ssl_context=servers.tls)
    imap.login(user, PASSWORD)
    return imap


def _append(imap: imaplib.IMAP4, raw: bytes, flags: str) -> int:
    status, data = imap.append("INBOX", flags, None, raw)
    assert status == "OK", data
    return int(re.search(rb"APPENDUID \d+ (\d+)", data[0]).group(1))  # dovecot: UIDPLUS


def _personal(subject: str, body: str = "See you at eight.") -> bytes:
    msg = message("friend@seki.test", "ishida@seki.test", subject, body, automatic="no")
    return msg.as_bytes()


def _flags(imap: imaplib.IMAP4, uids: dict[str, int]) -> dict[str, set[str]]:
    imap.select("INBOX", readonly=True)
    out = {}
    for name, uid in uids.items():
        _, data = imap.uid("FETCH", str(uid), "(FLAGS)")
        flags = re.search(rb"FLAGS \(([^)]*)\)", data[0]).group(1).decode().split()
        out[name] = {f for f in flags if f != "\\Recent"}
    return out


def _home(tmp_path: Path, monkeypatch, servers, extra: str = "") -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("SEKI_HOME", str(home))
    settings = home / "mail.toml"
    settings.write_text(player_mail_settings(servers, "ishida").replace(
        '[imap]\n', f"[imap]\n{extra}"))  # fmt: skip
    settings.chmod(0o600)
    return home


def test_seki_play_takes_only_seki_mail_and_changes_no_flag(servers, tmp_path, monkeypatch):
    imap = _imap(servers)
    ids = {
        n: make_msgid(domain="seki.test") for n in ("read", "unread", "flagged", "seki", "pasted")
    }

    def with_id(raw: bytes, name: str) -> bytes:
        return re.sub(rb"Message-ID: <[^>]*>", f"Message-ID: {ids[name]}".encode(), raw)

    seki = message("referee@seki.test", "ishida@seki.test", "[seki g] record 3", "Your move.",
                   [("packet.txt", DOCUMENT)]).as_bytes()  # fmt: skip
    uids = {
        "read": _append(imap, with_id(_personal("Dinner"), "read"), "(\\Seen)"),
        "unread": _append(imap, with_id(_personal("Holiday photos"), "unread"), "()"),
        # seki's subject tag but no document: searched for, read in memory, dropped
        "flagged": _append(
            imap, with_id(_personal("[seki night] still on?"), "flagged"), "(\\Flagged)"
        ),  # fmt: skip
        "seki": _append(imap, with_id(seki, "seki"), "()"),
        # no tag, a document pasted into the body: found by the BODY search
        "pasted": _append(imap, with_id(_personal("my turn", PASTED), "pasted"), "()"),
    }
    before = _flags(imap, uids)
    try:
        monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
        home = _home(tmp_path, monkeypatch, servers)
        _, fetched, _ = mailbox.collect(mailbox.settings(None))
        assert fetched >= 2  # the folder may hold other tests' seki mail too
        kept = b"".join(p.read_bytes() for p in (home / "mail").rglob("*.eml"))
        for name in ("seki", "pasted"):
            assert ids[name].encode() in kept
        for name in ("read", "unread", "flagged"):
            assert ids[name].encode() not in kept  # no copy of a person's mail
        assert _flags(imap, uids) == before == {
            "read": {"\\Seen"}, "unread": set(), "flagged": {"\\Flagged"}, "seki": set(),
            "pasted": set(),
        }  # fmt: skip
        # the UIDs looked at are remembered in the spool, not in the player's flags
        assert mailbox.collect(mailbox.settings(None))[1] == 0
    finally:
        imap.select("INBOX")
        imap.uid("STORE", ",".join(map(str, uids.values())), "+FLAGS", "(\\Deleted)")
        imap.expunge()
        imap.logout()


def _listing(folder: Path) -> list[str]:
    """A maildir's files, flags and all: what a mail client reads the flags from."""
    return sorted(f"{p.parent.name}/{p.name}" for p in folder.glob("*/*"))


def test_seki_play_takes_only_seki_mail_from_a_maildir_and_changes_no_flag(tmp_path, monkeypatch):
    """A player's local maildir, as its mail client keeps it (mailbox.Maildir): personal
    mail new and read, flagged, with seki's tag but no document; seki's mail attached and
    pasted, one already read by the player. seki keeps only seki's, renames nothing (so no
    flag changes), and looks at nothing twice."""
    box = mailbox_lib.Maildir(tmp_path / "Maildir", create=True)
    seki = message("referee@seki.test", "ishida@seki.test", "[seki g] record 3", "Your move.",
                   [("packet.txt", DOCUMENT)]).as_bytes()  # fmt: skip
    mails = {
        "new": (_personal("Holiday photos"), "new", ""),
        "read": (_personal("Dinner"), "cur", "S"),
        "flagged": (_personal("[seki night] still on?"), "cur", "F"),
        "seki": (seki, "new", ""),
        "pasted": (_personal("my turn", PASTED), "cur", "RS"),
    }
    for raw, sub, flags in mails.values():
        msg = mailbox_lib.MaildirMessage(raw)
        msg.set_subdir(sub)
        msg.set_flags(flags)
        box.add(msg)
    before = _listing(tmp_path / "Maildir")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("SEKI_HOME", str(home))
    settings = f'from = "ishida@seki.test"\nmaildir = "{tmp_path / "Maildir"}"\n'
    (home / "mail.toml").write_text(settings)
    _, fetched, _ = mailbox.collect(mailbox.settings(None))
    assert fetched == 2
    kept = b"".join(p.read_bytes() for p in (home / "mail").rglob("*.eml"))
    assert b"Your move." in kept and PASTED.encode() in kept
    for subject in (b"Holiday photos", b"Dinner", b"still on?"):
        assert subject not in kept  # no copy of a person's mail
    assert _listing(tmp_path / "Maildir") == before
    assert mailbox.collect(mailbox.settings(None))[1] == 0  # looked at, remembered
    box.add(seki.replace(b"record 3", b"record 4"))  # a new one is found, once
    assert mailbox.collect(mailbox.settings(None))[1] == 1
    assert mailbox.collect(mailbox.settings(None))[1] == 0


def test_the_robot_still_takes_every_unseen_message_of_its_own_folder(servers, tmp_path):
    imap = _imap(servers, "referee")
    uid = _append(imap, _personal("hello referee"), "()")
    try:
        config = servers.write_config(tmp_path / "referee.toml")
        server = mail_config.load(config).imap
        spool = Spool(tmp_path / "spool")
        server = mail_config.Server(**{**server.__dict__, "password": PASSWORD})
        assert mail_in.from_imap(spool, server) >= 1  # kept raw, for the robot to answer
        assert b"hello referee" in b"".join(p.read_bytes() for p in spool.root.rglob("*.eml"))
        assert _flags(imap, {"m": uid}) == {"m": {"\\Seen"}}
    finally:
        imap.select("INBOX")
        imap.uid("STORE", str(uid), "+FLAGS", "(\\Deleted)")
        imap.expunge()
        imap.logout()


def test_a_password_command_logs_in(servers, tmp_path, monkeypatch):
    monkeypatch.delenv("SEKI_IMAP_PASSWORD", raising=False)
    command = json.dumps([*PRINT, f"print({PASSWORD!r})"])  # a JSON list is a TOML array
    _home(tmp_path, monkeypatch, servers, f"password_command = {command}\n")
    assert mailbox.collect(mailbox.settings(None))[1] >= 0


def test_a_failing_password_command_is_refused_with_its_exit_status(tmp_path):
    server = mail_config.Server("127.0.0.1", 1, "none", "ishida", None, None,
                                password_command=(*PRINT, "raise SystemExit(3)"))  # fmt: skip
    with pytest.raises(UserError, match="exit status 3") as caught:
        mail_in.from_imap(Spool(tmp_path / "spool"), server)
    assert "raise SystemExit(3)" in str(caught.value)


@pytest.fixture
def file_keyring(tmp_path):
    """keyrings.alt's file backend, a real one, in a file of the test's own."""
    before = keyring.get_keyring()
    ring = PlaintextKeyring()
    ring.file_path = str(tmp_path / "keyring.cfg")
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(before)


def test_a_password_from_the_keyring_logs_in(servers, tmp_path, monkeypatch, file_keyring):
    monkeypatch.delenv("SEKI_IMAP_PASSWORD", raising=False)
    file_keyring.set_password("seki:127.0.0.1", "ishida", PASSWORD)
    _home(tmp_path, monkeypatch, servers)
    assert mailbox.collect(mailbox.settings(None))[1] >= 0
    # the environment comes before the keyring: a wrong one there is what the server sees
    monkeypatch.setenv("SEKI_IMAP_PASSWORD", "wrong")
    with pytest.raises(UserError, match="the server refused"):
        mailbox.collect(mailbox.settings(None))


def test_the_lookup_order_ends_in_a_refusal_naming_every_way(monkeypatch, file_keyring):
    server = mail_config.Server("mail.example.org", 993, "tls", "ann", None, None,
                                password_env="SEKI_IMAP_PASSWORD")  # fmt: skip
    with pytest.raises(UserError, match=r"SEKI_IMAP_PASSWORD.*keyring set seki:mail\.example"):
        login(server, "IMAP")
    file_keyring.set_password("seki:mail.example.org", "ann", "from-keyring")
    assert login(server, "IMAP").secret == "from-keyring"
    given = mail_config.Server(**{**server.__dict__, "password": "from-env-or-file"})
    assert login(given, "IMAP").secret == "from-env-or-file"
    command = mail_config.Server(**{**given.__dict__, "password_command": (*PRINT, "print('c')")})
    assert login(command, "IMAP").secret == "c"


def test_a_settings_file_with_a_password_others_may_read_is_warned_of(tmp_path, capsys):
    path = tmp_path / "mail.toml"
    path.write_text("from='a@b.org'\n[imap]\nhost='x'\nuser='a'\npassword='p'\n")
    path.chmod(0o644)
    assert mail_config.load(path).imap.password == "p"
    assert "others may read it; run: chmod 600" in capsys.readouterr().err
    path.chmod(0o600)
    mail_config.load(path)
    assert capsys.readouterr().err == ""


class TinyImap(threading.Thread):
    """Just enough IMAP on 127.0.0.1 to log in by XOAUTH2 and find no mail; it keeps what
    the client sent after AUTHENTICATE XOAUTH2, base64 decoded."""

    def __init__(self, accept: bool):
        super().__init__(daemon=True)
        self.accept = accept
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.received: list[bytes] = []

    def run(self) -> None:
        conn, _ = self.listener.accept()
        with conn, conn.makefile("rwb") as stream:

            def say(*lines: str) -> None:
                stream.write("".join(line + "\r\n" for line in lines).encode())
                stream.flush()

            say("* OK [CAPABILITY IMAP4rev1 AUTH=XOAUTH2] tiny")
            while line := stream.readline():
                tag, verb = line.decode().split()[:2]
                verb = verb.upper()
                if verb == "CAPABILITY":
                    say("* CAPABILITY IMAP4rev1 AUTH=XOAUTH2", f"{tag} OK done")
                elif verb == "AUTHENTICATE":
                    say("+ ")
                    self.received.append(base64.b64decode(stream.readline().strip()))
                    if self.accept:
                        say(f"{tag} OK authenticated")
                        continue
                    say("+ " + base64.b64encode(b'{"status":"401"}').decode())
                    self.received.append(stream.readline().strip())
                    say(f"{tag} NO [AUTHENTICATIONFAILED] invalid token")
                elif verb == "EXAMINE":
                    say("* 0 EXISTS", "* OK [UIDVALIDITY 7] ok", f"{tag} OK [READ-ONLY] done")
                elif verb == "UID":
                    say("* SEARCH", f"{tag} OK done")
                elif verb == "LOGOUT":
                    say("* BYE", f"{tag} OK done")
                    return
                else:
                    say(f"{tag} BAD unknown")


@pytest.mark.parametrize("accept", [True, False])
def test_a_token_command_logs_in_to_imap_by_xoauth2(tmp_path, accept):
    server_side = TinyImap(accept)
    server_side.start()
    server = mail_config.Server("127.0.0.1", server_side.port, "none", "ann@example.org", None,
                                None, token_command=(*PRINT, "print('ya29.token')"))  # fmt: skip
    spool = Spool(tmp_path / "spool")
    if accept:
        assert mail_in.from_imap(spool, server, seki_only=True) == 0
    else:
        with pytest.raises(UserError, match="the server refused.*invalid token"):
            mail_in.from_imap(spool, server, seki_only=True)
    server_side.join(5)
    assert server_side.received[0] == b"user=ann@example.org\x01auth=Bearer ya29.token\x01\x01"
    assert server_side.received[1:] == ([] if accept else [b""])  # the error answered empty


class XOAuth2Handler:
    """aiosmtpd handler taking AUTH XOAUTH2 with one token, keeping what it was sent."""

    def __init__(self):
        self.received: list[bytes] = []
        self.messages: list[bytes] = []

    async def auth_XOAUTH2(self, server, args):
        from aiosmtpd.smtp import AuthResult

        self.received.append(base64.b64decode(args[1]))
        return AuthResult(success=b"Bearer ya29.token\x01" in self.received[-1])

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope.content)
        return "250 delivered"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_a_token_command_logs_in_to_smtp_by_xoauth2(tmp_path):
    from aiosmtpd.controller import Controller
    from mailservers import free_port

    handler = XOAuth2Handler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, auth_required=True,
                            auth_require_tls=False)  # fmt: skip
    controller.start()
    try:
        smtp = mail_config.Server("127.0.0.1", port, "none", "ann@example.org", None, None,
                                  token_command=(*PRINT, "print('ya29.token')"))  # fmt: skip
        spool = Spool(tmp_path / "spool")
        spool.queue("t", message("ann@example.org", "ref@example.org", "[seki g] t", "x"))
        delivery = send_outbox(spool, mail_config.MailSettings("ann@example.org", smtp, None, 1, 0))
    finally:
        controller.stop()
    assert delivery.sent == ["t"], delivery.failed
    assert handler.received == [b"user=ann@example.org\x01auth=Bearer ya29.token\x01\x01"]
    assert len(handler.messages) == 1


def test_a_system_without_a_keyring_is_told_to_use_password_command(tmp_path):
    """Issue 37: on a Linux without a Secret Service, keyring has no backend and `keyring
    set` fails with its own traceback; the real `seki mail fetch` (keyring's fail backend,
    as keyring picks it there) says in one line to use password_command, and does not
    send the player to `keyring set`."""
    settings = tmp_path / "mail.toml"
    settings.write_text('from = "ann@example.org"\n[imap]\nhost = "mail.example.org"\n'
                        'port = 993\nsecurity = "tls"\nuser = "ann"\n')  # fmt: skip
    settings.chmod(0o600)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("SEKI_")},
           "SEKI_HOME": str(tmp_path / "home"),
           "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}  # fmt: skip
    done = subprocess.run(
        [str(Path(sys.executable).parent / "seki"), "mail", "fetch", str(tmp_path / "spool"),
         "--imap", "--mail-config", str(settings)],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 75, done.stderr  # a mail failure (refusal.ExitStatus)
    (line,) = done.stderr.splitlines()
    assert "no keyring" in line and "password_command" in line, line
    assert "keyring set" not in line and "Traceback" not in done.stderr
