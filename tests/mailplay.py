"""A campaign by mail for the tests and bench/mail_campaign.py: the referee runs nothing but
`seki referee run` (through the real CLI) against real SMTP and IMAP servers on loopback;
two bot players read their own IMAP mailboxes and answer by SMTP, as a person's mail
client would."""

from __future__ import annotations

import imaplib
import smtplib
import ssl
from contextlib import ExitStack
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from click.testing import CliRunner
from mailservers import PASSWORD, Dovecot, SmtpServer, make_certificates

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import Identity, generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import clock, game, joins, packets, takebacks, turns
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.vocab import SIDES, other

DOMAIN = "seki.test"
USERS = ["referee", *SIDES]


def address(user: str) -> str:
    return f"{user}@{DOMAIN}"


class BriskBot(Bot):
    """A demo bot that ends its movement phase or battle half the time it may, so that a
    game by mail takes a few hundred mails, not thousands."""

    PASSES = ({"type": "end_movement"}, {"type": "finish"}, {"type": "decline"})

    def answer(self, packet_text: str, where: str) -> str | None:
        packet = packets.open_packet(self.definition, packet_text, self.identity, where)
        passes = [o for o in packet.options if o in self.PASSES]
        if passes and rng.below(self.chooser, 2) == 0:
            body = turns.body(self.definition, packet.side, packet.seq, passes[:1])
            return self.sealed(body)
        return super().answer(packet_text, where)


@dataclass
class Player:
    """A bot at its mail client: it sees only its own mailbox and its own packets."""

    side: str
    identity: Identity
    servers: Servers
    bots: dict = field(default_factory=dict)  # game id -> Bot
    definitions: dict = field(default_factory=dict)
    latest: dict = field(default_factory=dict)  # game id -> (seq, packet text)
    requests: list = field(default_factory=list)  # takeback requests received
    replies: list = field(default_factory=list)  # the robot's answers to bad mail
    closing: list = field(default_factory=list)
    seen_subjects: list = field(default_factory=list)

    def read_mail(self) -> list[EmailMessage]:
        imap = imaplib.IMAP4("127.0.0.1", self.servers.dovecot.imap_port)
        imap.starttls(ssl_context=self.servers.tls)
        imap.login(self.side, PASSWORD)
        imap.select("INBOX")
        _, data = imap.uid("SEARCH", None, "UNSEEN")
        out = []
        for uid in data[0].split():
            _, parts = imap.uid("FETCH", uid, "(RFC822)")
            raw = next(p[1] for p in parts if isinstance(p, tuple))
            from email import message_from_bytes
            from email.policy import default

            out.append(message_from_bytes(raw, policy=default))
        imap.logout()
        for msg in out:
            self._file(msg)
        return out

    def _file(self, msg: EmailMessage) -> None:
        subject = str(msg["Subject"])
        self.seen_subjects.append(subject)
        if str(msg.get("Auto-Submitted")) == "auto-replied":
            self.replies.append(msg.get_content() if not msg.is_multipart() else msg)
        for part in msg.iter_attachments():
            name = part.get_filename() or ""
            text = part.get_content()
            if isinstance(text, bytes):
                text = text.decode()
            if name == "game.txt":
                definition = game.parse(text, name)
                self.definitions[definition.game_id] = definition
                self.bots[definition.game_id] = BriskBot(self.identity, definition, "mail")
                self.send(f"join {definition.game_id}", joins.make_join(definition, self.identity))
            elif name.startswith("join-"):  # the other side's join: now send the seed
                definition = self.definitions[docs.peek_game(text, name)]
                seed = joins.make_seed(definition, self.identity, text, name)
                self.send(f"seed {definition.game_id}", seed)
            elif name.startswith("packet-"):
                game_id, seq = name.split("-")[1], int(name.split("-")[2])
                if seq >= self.latest.get(game_id, (0, ""))[0]:
                    self.latest[game_id] = (seq, text)
            elif "-takeback-" in name:
                self.requests.append(text)
            elif name == "reveal.txt":
                self.closing.append(msg)

    def asked(self, game_id: str) -> bool:
        seq, text = self.latest.get(game_id, (0, ""))
        if not text:
            return False
        definition = self.definitions[game_id]
        packet = packets.open_packet(definition, text, self.identity, "packet")
        return bool(packet.options)

    def move(self, game_id: str) -> bool:
        """Answer the latest packet if it asks something; True if a turn file was sent."""
        seq, text = self.latest.get(game_id, (0, ""))
        if not text:
            return False
        turn = self.bots[game_id].answer(text, "packet")
        if turn is None:
            return False
        self.send(f"Re: [seki {game_id}] record {seq}", turn)
        self.latest[game_id] = (seq, "")  # answered
        return True

    def signed(self, body: str) -> str:
        return signing.sign(body, self.identity)

    def send(self, subject: str, attachment: str | None, body: str = "My turn file.") -> None:
        msg = EmailMessage()
        msg["From"] = address(self.side)
        msg["To"] = address("referee")
        msg["Subject"] = subject
        msg.set_content(body)
        if attachment is not None:
            msg.add_attachment(attachment.encode(), maintype="text", subtype="plain",
                               filename="turn.txt")  # fmt: skip
        smtp = smtplib.SMTP("127.0.0.1", self.servers.smtp.port, timeout=30)
        smtp.starttls(context=self.servers.tls)
        smtp.login(self.side, PASSWORD)
        smtp.send_message(msg)
        smtp.quit()

    def request_takeback(self, game_id: str, seq: int, record_hash: str) -> None:
        definition = self.definitions[game_id]
        body = takebacks.request_body(definition, self.side, seq, record_hash, "I misclicked")
        self.send(f"[seki {game_id}] takeback", self.signed(body))

    def answer_requests(self, game_id: str, accept: bool) -> int:
        answered = 0
        for text in self.requests:
            request = takebacks.parse_request(self.definitions[game_id], text, "request")
            body = takebacks.consent_body(
                self.definitions[game_id],
                other(request.side),
                request.hash,
                "accept" if accept else "refuse",
            )
            self.send(f"[seki {game_id}] takeback answer", self.signed(body))
            answered += 1
        self.requests.clear()
        return answered


class Servers:
    """SMTP and IMAP on loopback, with a CA the robot is told to trust."""

    def __init__(self, base: Path):
        self.base = base
        self.certs = make_certificates(base / "certs")
        self.mail_root = base / "mail"
        self.smtp = SmtpServer(self.certs, self.mail_root, USERS)
        self.dovecot = Dovecot(base / "dovecot", self.certs, self.mail_root, USERS)
        self.tls = ssl.create_default_context(cafile=str(self.certs.ca))
        self._stack = ExitStack()

    def __enter__(self) -> Servers:
        self._stack.enter_context(self.smtp)
        self._stack.enter_context(self.dovecot)
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def write_config(self, path: Path) -> Path:
        path.write_text(
            f'from = "{address("referee")}"\n'
            "[smtp]\n"
            f'host = "127.0.0.1"\nport = {self.smtp.port}\nsecurity = "starttls"\n'
            f'user = "referee"\nca_file = "{self.certs.ca}"\n'
            "[imap]\n"
            f'host = "127.0.0.1"\nport = {self.dovecot.imaps_port}\nsecurity = "tls"\n'
            f'user = "referee"\nca_file = "{self.certs.ca}"\n'
            "[retry]\nattempts = 3\ndelay_seconds = 0\n"
        )
        return path


class Campaign:
    """The referee's side: keys, games made with `seki game new`, and robot passes."""

    def __init__(self, base: Path, servers: Servers):
        self.base, self.servers = base, servers
        self.keys = base / "keys"
        self.people = {n: generate(n) for n in USERS}
        for identity in self.people.values():
            write_identity(self.keys, identity)
        self.config = servers.write_config(base / "referee-mail.toml")
        self.spool = base / "spool"
        self.games: list[Path] = []
        self.runner = CliRunner()
        self.env = {"SEKI_SMTP_PASSWORD": PASSWORD, "SEKI_IMAP_PASSWORD": PASSWORD,
                    "SEKI_HOME": str(base / "referee-home")}  # fmt: skip
        self.now = clock.parse_time("2026-12-01T09:00:00Z", "start")
        self.players = {s: Player(s, self.people[s], servers) for s in SIDES}

    def key(self, name: str) -> str:
        return str(self.keys / f"{name}.identity")

    def cli(self, *args: str):
        result = self.runner.invoke(app, list(args), env=self.env, catch_exceptions=False)
        return result

    def new_game(self, name: str, *extra: str) -> Path:
        root = self.base / name
        result = self.cli(
            "game", "new", str(root), "--id", name, "--key", self.key("referee"),
            "--ishida", self.people["ishida"].public.line(),
            "--tokugawa", self.people["tokugawa"].public.line(),
            *[a for s in USERS for a in ("--email", f"{s}={address(s)}")], *extra,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        self.games.append(root)
        return root

    def now_text(self) -> str:
        return clock.format_time(self.now)

    def advance(self, hours: float) -> None:
        self.now += clock.timedelta(hours=hours)

    def robot(self) -> str:
        result = self.cli(
            "referee", "run", str(self.spool), *map(str, self.games), "--key",
            self.key("referee"), "--imap", "--mail-config", str(self.config),
            "--now", self.now_text(),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        return result.output

    def deliver(self) -> str:
        """One robot pass, then every player reads its mail."""
        out = self.robot()
        for player in self.players.values():
            player.read_mail()
        return out

    def moves(self, skip: tuple[str, ...] = (), hours: float = 1) -> None:
        """Every player (but those skipped) answers what it is asked; the clock moves on."""
        for side, player in self.players.items():
            if side not in skip:
                for game_id in list(player.bots):
                    player.move(game_id)
        self.advance(hours)

    def round(self, hours: float = 1, skip: tuple[str, ...] = ()) -> str:
        out = self.deliver()
        self.moves(skip, hours)
        return out


def player_mail_settings(servers: Servers, side: str) -> str:
    """A player's mail.toml: its own SMTP and IMAP accounts on the loopback servers."""
    return (
        f'from = "{address(side)}"\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {servers.smtp.port}\nsecurity = "starttls"\n'
        f'user = "{side}"\nca_file = "{servers.certs.ca}"\n'
        f'[imap]\nhost = "127.0.0.1"\nport = {servers.dovecot.imaps_port}\nsecurity = "tls"\n'
        f'user = "{side}"\nca_file = "{servers.certs.ca}"\n'
        "[retry]\nattempts = 3\ndelay_seconds = 0\n"
    )
