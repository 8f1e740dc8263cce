"""docs/first-game.md, followed as written (issue 31): its code blocks, parsed out of the
page in their order, run by two players through the real `seki` (and the real `keyring`)
at a pseudo-terminal, against the suite's real mail servers on 127.0.0.1 (aiosmtpd with
STARTTLS and AUTH, dovecot with TLS), with the referee's robot (`seki referee run`, as
docs/referee.md sets it up) between them, to each player's first turn taken by the robot
and its receipt in the player's mailbox.

alice reads the page as it is and takes its Gmail section; bob reads it with his own name
for "alice" and takes its Outlook.com section. The rest of the page is the same for both,
but for the first turn: alice plays it with `--send`, bob mails the file himself
("Mailing the file yourself"), attached, as his mail program would.

What the test changes, and only that, to point the page at the test servers instead of
Google's and Microsoft's (`_settings`, `_command`):

- in `mail.toml`: each `host` becomes 127.0.0.1 and each `port` the test server's; each
  `user` becomes the player's login there (alice's Gmail account is the test servers'
  `ishida` account, bob's Outlook.com one `tokugawa`) and `from` its address there
  (ishida@seki.test: the SMTP server delivers by the address's name); `ca_file` is added
  in each section, to trust the test servers' certificate authority; and bob's secret,
  `token_command` (the test servers speak no XOAUTH2: tests/test_mail_login.py proves it
  against servers that do), becomes a `password_command` that prints the password;
- in the `keyring set` lines: the servers' host names and alice's address, the same way;
  the app password she types at its prompt is the test servers' password, kept in a
  keyring file of the test's own (keyrings.alt's file backend, a real one);
- each player's key directory is `$SEKI_HOME`, a folder of the test's, for
  `~/.config/seki`, and the page's commands run in a folder of each player's own.

Not run: the lines of programs that are not on the test machine or that need Google or
Microsoft (`pipx`, `mutt_oauth2.py`): the `seki` installed is the suite's own.
"""

from __future__ import annotations

import io
import json
import mailbox
import os
import re
import smtplib
import subprocess
import sys
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pexpect
import playscript
from mailservers import PASSWORD

from sekigahara_pbem.protocol.store import GameDir

PAGE = Path(__file__).parent.parent / "docs" / "first-game.md"
BIN = Path(sys.executable).parent
NOT_HERE = ("pipx", "mutt_oauth2.py")  # programs not on the test machine (see above)
PROMPT = r"u undo, q stop\)"
GMAIL = ("smtp.gmail.com", "imap.gmail.com")
OUTLOOK = ("smtp-mail.outlook.com", "outlook.office365.com")


@dataclass
class Block:
    heading: str  # the heading the block is under
    kind: str  # its fence's language: sh or toml
    text: str


@dataclass
class Player:
    name: str  # what the player reads for "alice"
    account: str  # the test servers' account: the side the referee gives the player
    service: str  # the section of the page the player takes
    folder: Path
    home: Path
    env: dict = field(default_factory=dict)
    address: str = ""  # the player's own, as its mail.toml names it


def blocks(text: str) -> list[Block]:
    """The page's code blocks in order, each with its heading, dedented as a list item's
    are (a fence indented by n spaces: its lines by n)."""
    found, heading, lines = [], "", iter(text.splitlines())
    for line in lines:
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        fence = re.fullmatch(r"( *)```(\w+)", line)
        if fence:
            indent, body = len(fence.group(1)), []
            for inner in lines:
                if inner.strip() == "```":
                    break
                body.append(inner[indent:])
            found.append(Block(heading, fence.group(2), "\n".join(body) + "\n"))
    return found


ONLY = {  # the page's sections for one service, or one way of mailing the turn
    "Gmail": "gmail",
    "Outlook.com (and Hotmail, Live, Microsoft 365)": "outlook",
    "5. Your first turn": "alice",
    "Mailing the file yourself": "bob",
}


def _runs(player: Player, block: Block) -> bool:
    """Whether the player follows this block: a section of ONLY is taken by the one player
    it names (by service or by name), the rest of the page by both."""
    wanted = ONLY.get(block.heading)
    return wanted is None or wanted in (player.service, player.name)


def _settings(text: str, player: Player, servers) -> str:
    """The page's mail.toml pointed at the test servers (module docstring): every line
    the test does not change is the page's own, `security` included."""
    ports = {"smtp": servers.smtp.port, "imap": servers.dovecot.imaps_port}
    password = json.dumps([sys.executable, "-c", f"print({PASSWORD!r})"])
    out, section = [], None
    for line in text.splitlines():
        key = line.partition("=")[0].strip()
        if line.startswith("["):
            section = line.strip("[]")
            out += [line, f'ca_file = "{servers.certs.ca}"']
            continue
        out.append({
            "from": f'from = "{player.account}@seki.test"',
            "host": 'host = "127.0.0.1"',
            "port": f"port = {ports.get(section)}",
            "user": f'user = "{player.account}"',
            "token_command": f"password_command = {password}",
        }.get(key, line))  # fmt: skip
    return "\n".join(out) + "\n"


def _command(line: str, player: Player) -> str:
    """A command of the page, pointed at the test servers (module docstring)."""
    for host in GMAIL + OUTLOOK:
        line = line.replace(host, "127.0.0.1")
    return line.replace(player.address, player.account) if player.address else line


class Referee:
    """The referee's side, as docs/referee.md sets it up: a key, a game with the players'
    keys and addresses, and the robot's passes (the real `seki` each time)."""

    def __init__(self, base: Path, servers):
        self.folder, self.servers = base / "referee", servers
        self.folder.mkdir()
        self.config = servers.write_config(base / "referee-mail.toml")
        self.env = {**os.environ, "SEKI_HOME": str(base / "referee-keys"),
                    "SEKI_SMTP_PASSWORD": PASSWORD, "SEKI_IMAP_PASSWORD": PASSWORD}  # fmt: skip
        self.seki("keys", "new", "referee")

    def seki(self, *args: str) -> str:
        done = subprocess.run([str(BIN / "seki"), *args], cwd=self.folder, env=self.env,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    def new_game(self, pubs: dict[str, Path]) -> Path:
        emails = [f"{who}={who}@seki.test" for who in ("ishida", "tokugawa", "referee")]
        self.seki("game", "new", "games/g1", "--key", "referee",
                  "--ishida", str(pubs["ishida"]), "--tokugawa", str(pubs["tokugawa"]),
                  *[a for e in emails for a in ("--email", e)])  # fmt: skip
        return self.folder / "games" / "g1"

    def robot(self) -> str:
        return self.seki("referee", "run", "spool", "games/g1", "--key", "referee", "--imap",
                         "--mail-config", str(self.config))  # fmt: skip


def _terminal(line: str, player: Player, answers: list) -> str:
    """One command line of the page, run by bash at a pseudo-terminal as the player would
    type it; the prompts answered as the page says (`y` to join, the app password at the
    keyring's prompt, the turn's questions, Enter to sign). What it printed."""
    child = pexpect.spawn("bash", ["-c", line], cwd=str(player.folder), env=player.env,
                          encoding="utf-8", timeout=120, dimensions=(50, 120))  # fmt: skip
    child.logfile_read = seen = io.StringIO()
    pending = iter(answers)
    prompts = [r"Join\? \[y/N\]", PROMPT, r"Sign it\?", "Password for", pexpect.EOF]
    while (i := child.expect(prompts)) < 4:
        if i == 1:
            answer = next(pending, None)  # None: the last question, drawn again as answered
            if answer is not None:
                child.send(playscript.keys(*answer))
        else:
            child.sendline(("y", None, "", PASSWORD)[i])
    child.close()
    assert child.exitstatus == 0, f"{line}\n{seen.getvalue()}"
    return seen.getvalue()


def _turn_answers(player: Player, referee: Referee, root: Path, monkeypatch) -> list:
    """The answers to the packet last mailed to the player (the robot's mailed.json), as a
    person picks them from what the terminal shows (tests/playscript.py), read from the
    referee's copy of that packet."""
    mailed = json.loads((referee.folder / "spool" / "mailed.json").read_text())
    seq = mailed[root.name][player.account]
    monkeypatch.setenv("SEKI_HOME", str(player.home))
    pairs, _ = playscript.answers(player.name, GameDir(root).packet(seq, player.account), seq)
    return pairs


def _attach(player: Player, servers, path: Path) -> None:
    """bob's mail program: the signed file attached to a mail to the referee's address."""
    msg = EmailMessage()
    msg["From"], msg["To"] = f"{player.account}@seki.test", "referee@seki.test"
    msg["Subject"] = "my first turn"
    msg.set_content("Here it is.")
    msg.add_attachment(path.read_bytes(), maintype="text", subtype="plain", filename=path.name)
    with smtplib.SMTP("127.0.0.1", servers.smtp.port, timeout=30) as smtp:
        smtp.starttls(context=servers.tls)
        smtp.login(player.account, PASSWORD)
        smtp.send_message(msg)


def _received(servers, account: str) -> list[str]:
    """The text of every mail in a player's mailbox."""
    box = mailbox.Maildir(servers.mail_root / account / "Maildir", create=False)
    return [m.get_payload(0).get_payload(decode=True).decode() if m.is_multipart()
            else m.get_payload(decode=True).decode() for m in box]  # fmt: skip


def test_the_first_game_page_from_nothing_to_a_first_turn_by_email(servers, tmp_path,
                                                                     monkeypatch):  # fmt: skip
    page = PAGE.read_text(encoding="utf-8")
    assert set(ONLY) <= {b.heading for b in blocks(page)}  # the sections are still there
    referee = Referee(tmp_path, servers)
    players = [
        Player("alice", "ishida", "gmail", tmp_path / "alice", tmp_path / "alice-keys"),
        Player("bob", "tokugawa", "outlook", tmp_path / "bob", tmp_path / "bob-keys"),
    ]
    for p in players:
        p.folder.mkdir()
        p.env = {**{k: v for k, v in os.environ.items() if not k.startswith("SEKI_")},
                 "SEKI_HOME": str(p.home), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
                 "PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring",
                 "XDG_DATA_HOME": str(tmp_path / f"{p.name}-keyring"), "TERM": "xterm",
                 "PROMPT_TOOLKIT_NO_CPR": "1"}  # fmt: skip
    root, ran = None, []
    for n, _block in enumerate(blocks(page)):
        if root is None and all(p.home.joinpath(f"{p.name}.identity").exists() for p in players):
            # "Mail alice.pub to the referee": the referee makes the game and invites both
            root = referee.new_game({p.account: p.folder / f"{p.name}.pub" for p in players})
            referee.robot()
        for player in players:
            block = blocks(page.replace("alice", player.name))[n]
            if not _runs(player, block):
                continue
            ran.append((n, player.name))
            if block.kind == "toml":
                player.home.joinpath("mail.toml").write_text(_settings(block.text, player, servers))
                player.address = re.search(r'^from = "(.+)"$', block.text, re.M).group(1)
                continue
            for line in block.text.splitlines():
                if line.split()[0] in NOT_HERE:
                    continue
                if "seki play" in line:
                    referee.robot()  # what the referee's cron does between the players' runs
                answers = []
                if line.startswith("seki play") and root is not None and GameDir(root).last_seq():
                    answers = _turn_answers(player, referee, root, monkeypatch)
                out = _terminal(_command(line, player), player, answers)
                assert not re.search(r"^seki: ", out, re.M), out  # no refusal, no warning
    assert root is not None
    # bob mails the file seki play wrote, attached, as the page says
    bob = players[1]
    (turn,) = bob.folder.glob("turn-g1-*-tokugawa.signed.txt")
    _attach(bob, servers, turn)
    out = referee.robot()
    assert "refused" not in out, out
    assert not (root / "rejected").exists()
    for player in players:
        receipts = [t for t in _received(servers, player.account) if "your turn is in" in t]
        assert len(receipts) == 1, (player.name, _received(servers, player.account))
    assert {n for n, _ in ran} == set(range(len(blocks(page))))  # every block, by someone
    assert {name for _, name in ran} == {"alice", "bob"}
