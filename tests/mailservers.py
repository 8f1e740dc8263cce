"""Real mail servers on 127.0.0.1 for the tests: an SMTP server (aiosmtpd, STARTTLS and AUTH
required) that delivers into one maildir per user, and Debian's dovecot serving those
maildirs over IMAP with TLS. Certificates come from a throwaway CA made here.

Without dovecot installed, the IMAP tests are skipped, unless SEKI_REQUIRE_SERVERS=1 (CI
sets it), which turns the skip into a failure.
"""

from __future__ import annotations

import datetime
import os
import random
import shutil
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
PASSWORD = "secret-password"


def mail_owner() -> tuple[int, int]:
    """Dovecot will not serve mail as root: as root, the maildirs belong to 'nobody'."""
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    import pwd

    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


def hand_over(folder: Path) -> None:
    """Give a maildir tree to the mail owner (a no-op unless the tests run as root)."""
    uid, gid = mail_owner()
    if os.getuid() != 0:
        return
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, uid, gid)


def require_dovecot() -> None:
    if not Path(DOVECOT).is_file():
        if os.environ.get("SEKI_REQUIRE_SERVERS") == "1":
            pytest.fail("dovecot is not installed (apt-get install dovecot-imapd)")
        pytest.skip("dovecot is not installed (apt-get install dovecot-imapd)")


HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on, below every system's ephemeral range
    (Linux's starts at 32768). A port the kernel chose (bind to 0) lies inside it, and the
    kernel may give it to an outgoing connection, this suite's own clients included, between
    this check and the server's own bind: dovecot then stops on "Address already in use"."""
    chance = random.SystemRandom()
    while True:
        port = chance.randrange(20000, 32768)
        if port in HANDED_OUT:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:  # taken: try another
                continue
        HANDED_OUT.add(port)
        return port


@dataclass
class Certificates:
    ca: Path
    cert: Path
    key: Path


def make_certificates(folder: Path) -> Certificates:
    """A CA and a server certificate for 127.0.0.1, both valid for a day, with the key
    identifiers Python 3.13's strict verification (VERIFY_X509_STRICT) requires."""
    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "seki test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    import ipaddress

    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        # what Python 3.13's strict verification asks of a server certificate
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .sign(ca_key, hashes.SHA256())
    )
    out = Certificates(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    out.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    out.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    out.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    out.key.chmod(0o600)
    return out


class MaildirDelivery:
    """aiosmtpd handler: each recipient's mail goes into <root>/<local part>/Maildir."""

    def __init__(self, root: Path, users: list[str]):
        self.root, self.users = root, users
        self.received: list[bytes] = []
        self.refuse_next = 0  # answer this many DATA commands with 451 (a transient failure)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.partition("@")[0] not in self.users:
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.refuse_next:
            self.refuse_next -= 1
            return "451 try again later"
        import mailbox

        self.received.append(envelope.content)
        for rcpt in envelope.rcpt_tos:
            user_root = self.root / rcpt.partition("@")[0]
            user_root.mkdir(parents=True, exist_ok=True)
            box = mailbox.Maildir(user_root / "Maildir", create=True)
            box.add(envelope.content)
            hand_over(user_root)
        return "250 delivered"


def _authenticator(server, session, envelope, mechanism, auth_data):
    from aiosmtpd.smtp import AuthResult

    ok = auth_data.password == PASSWORD.encode() and auth_data.login.decode() in (
        "referee",
        "ishida",
        "tokugawa",
    )
    return AuthResult(success=ok)


class SmtpServer:
    """aiosmtpd on 127.0.0.1 requiring STARTTLS and then AUTH."""

    def __init__(self, certs: Certificates, mail_root: Path, users: list[str]):
        from aiosmtpd.controller import Controller

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certs.cert, certs.key)
        self.handler = MaildirDelivery(mail_root, users)
        self.port = free_port()
        self.controller = Controller(
            self.handler,
            hostname="127.0.0.1",
            port=self.port,
            tls_context=context,
            require_starttls=True,
            auth_required=True,
            authenticator=_authenticator,
        )

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()


DOVECOT_CONF = """\
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{cert}
ssl_key = <{key}
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain login
first_valid_uid = 0
default_login_user = dovenull
default_internal_user = dovecot
mail_location = maildir:{mail}/%n/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%n {base}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={mail}/%n
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


class Dovecot:
    """Debian's dovecot in the foreground, serving <mail>/<user>/Maildir over IMAP with TLS
    (port `imaps`) and STARTTLS (port `imap`)."""

    def __init__(self, base: Path, certs: Certificates, mail_root: Path, users: list[str]):
        self.base, self.mail_root = base, mail_root
        for d in ("run", "state"):
            (base / d).mkdir(parents=True, exist_ok=True)
        for user in users:
            for sub in ("cur", "new", "tmp"):
                (mail_root / user / "Maildir" / sub).mkdir(parents=True, exist_ok=True)
            hand_over(mail_root / user)
        (base / "users").write_text("".join(f"{u}:{{PLAIN}}{PASSWORD}\n" for u in users))
        uid, gid = mail_owner()
        self.imap_port, self.imaps_port = free_port(), free_port()
        self.conf = base / "dovecot.conf"
        self.conf.write_text(
            DOVECOT_CONF.format(
                base=base,
                cert=certs.cert,
                key=certs.key,
                mail=mail_root,
                uid=uid,
                gid=gid,
                imap_port=self.imap_port,
                imaps_port=self.imaps_port,
            )  # fmt: skip
        )
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Dovecot:
        self.process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(self.conf)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                out = self.process.stdout.read().decode(errors="replace")
                log = (
                    (self.base / "dovecot.log").read_text()
                    if (self.base / "dovecot.log").exists()
                    else ""
                )
                raise RuntimeError(f"dovecot exited: {out}\n{log}")
            try:
                with socket.create_connection(("127.0.0.1", self.imaps_port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("dovecot did not start listening")

    def __exit__(self, *exc) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
