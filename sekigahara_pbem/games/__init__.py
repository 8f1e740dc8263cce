"""A game of either mode, with one interface for what the commands ask of any game (issues
29, 40): a game directory opened once, whichever mode it was played in — a referee's game
(`referee.py`) or a two-party game (`two_party.py`) — for its status, its verification,
its replay and its reveal; and a mode chosen once, by the command line's flag or by the
invitation's format, for what starts a game: its creation, a player's join, a demo. The
commands call it and print; this is the one place that tells the modes apart, so a
command never branches on the mode. A mode is what differs: who holds which secret (the
referee's seed and state, or each side its own), and so whose key creates the game.

The words are made here, in the reader's language, as the commands printed them; each
mode's own modules are imported only when its game is opened (the two-party stack costs a
referee's game 20 ms)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..refusal import Refusal
from ..twoparty import GAME_FORMAT, is_two_party

if TYPE_CHECKING:
    from ..crypto.keys import Identity, PublicKey
    from ..reports.replay import Record
    from ..rules.components import Components


class NotVerified(Refusal):
    """An archive that does not verify: the discrepancy (a referee's game) or the cheat
    (a two-party game) it wraps says where and why."""


@dataclass(frozen=True)
class Status:
    """What `status` found: in words for a person (`lines`), and as facts for a program
    (`facts`, JSON-ready: the mode, the records, what the game waits for from whom)."""

    lines: list[str]
    facts: dict


@dataclass(frozen=True)
class Verified:
    """What `verify` found: in words for a person (`lines`), and as facts for a program
    (`facts`, JSON-ready: the mode, the counts, the result)."""

    lines: list[str]
    facts: dict


@dataclass(frozen=True)
class Replayed:
    """What `replay` found: the game's id, its component set, and its records as the
    replay page shows them."""

    game_id: str
    comp: Components
    records: list[Record]


@dataclass(frozen=True)
class Said:
    """What a command that starts something has to say: `made` for standard output (what
    it makes, for a file or a pipe), `told` for standard error (what it wrote, what to do
    next: docs/cli.md); `bug`, a failure of seki's own (exit 70), said last."""

    made: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    bug: str | None = None


@dataclass(frozen=True)
class NewGame:
    """A game to create, as `seki game new` was given it (its options already read)."""

    directory: Path
    game_id: str
    creator: Identity  # the key `Mode.creator` names: the referee's, or one player's
    players: dict[str, PublicKey]
    options: dict
    addresses: dict[str, str]  # who -> mail address
    languages: dict[str, str]  # who -> language of the robot's mail
    deadlines: dict | None  # hours, reminder_hours, extension_hours, max_extensions, policy


@dataclass(frozen=True)
class Joining:
    """An invitation answered, as `seki join` was asked to: its text and where it was
    read, the player's key, the file to write (`out`), the game's definition for a seed
    (`game_file`), and whether to mail the answer with the mail settings."""

    text: str
    where: str
    identity: Identity
    out: Path | None
    game_file: Path | None
    send: bool
    mail_config: Path | None


@dataclass(frozen=True)
class Demo:
    """A whole game between two bots by the real files, as `seki demo` was asked."""

    directory: Path
    seed: str
    bot: str
    plans: bool
    budget: float


@dataclass(frozen=True)
class Turn:
    """A turn, as `seki play` was asked: what it was given (`path`: a two-party side's
    directory, a referee's packet, or none: the newest packet in `folder` or the mail),
    the player's key (and its name, as the hints name it), the answers' script
    (`choose`), the mail settings, the page to write (`html`), and whether the turn is
    played on the board. A two-party side's: the files the other side sent, the record
    chosen instead of a turn (--resign, --claim-forfeit, --takeback, --agree-takeback). A
    referee's packet's: whether to mail the turn file (`send`), where to write it
    (`out`), and whether to file a battle plan first (`plan`)."""

    path: Path | None
    identity: Identity
    key: str
    choose: str | None
    mail_config: Path | None
    html: Path | None
    board: bool
    received: list[Path] = field(default_factory=list)
    asides: tuple[bool, bool, bool, bool] = (False, False, False, False)
    folder: Path | None = None
    send: bool = False
    out: Path | None = None
    plan: bool = False


@dataclass(frozen=True)
class Robot:
    """A bot's pass for cron, as `seki bot run` was asked: the player's key, its mail
    settings, the bot, its seed and, in a referee's game, its battle plans and thinking
    time (a two-party side's bot is the heuristic or the random one), and the clock."""

    identity: Identity
    mail_config: Path | None
    bot: str
    seed: str
    plans: bool
    budget: float
    now: str


@dataclass(frozen=True)
class Shell:
    """How a turn talks to the person playing it: `show` what it makes (the report, on
    standard output), `tell` the rest (standard error), `confirm` a yes-or-no question
    (no by default), and the command's clock."""

    show: Callable[[str], None]
    tell: Callable[[str], None]
    now: Callable[[], str]
    confirm: Callable[[str], bool]


class Game(Protocol):
    @property
    def root(self) -> Path:
        """The game's directory."""
        ...

    def status(self, now: str) -> Status:
        """The last record and what the game waits for, from whom (public information)."""
        ...

    def verify(self) -> Verified:
        """The archive replayed and checked whole: what was verified; NotVerified at the
        first thing that is wrong."""
        ...

    def reveal(self, identity: Identity, now: str, force: bool) -> str:
        """Publish this key's secrets, at the end of the game (or by agreement: force);
        what was written, in words."""
        ...

    def replay(self) -> Replayed:
        """The archive verified, then each record as `seki replay` shows it: its map, its
        events and, once revealed, each side's view; NotVerified if it does not verify."""
        ...

    def revealer(self) -> str | None:
        """The key that reveals when none is named: the referee's, as game.txt names it;
        None in a two-party game, where each player reveals its own."""
        ...

    def play(self, turn: Turn, shell: Shell) -> None:
        """The player's turn in its own directory of the game (a two-party side's); a
        referee's game is played from the referee's packets instead, and refused."""
        ...

    def bot_pass(self, robot: Robot) -> Said:
        """One pass of a bot at its own directory of the game, for cron: take in what
        came by mail, answer, reveal at the end, mail it all; what it did, in words. A
        referee's game is answered from the bot's mailbox instead, and refused."""
        ...


class Mode(Protocol):
    """What starts a game of one mode."""

    @property
    def creator(self) -> str | None:
        """The key a person who names none creates the game with, by custom ("referee"),
        or None: the player's own (`commands.common.chosen_key`)."""
        ...

    def create(self, new: NewGame, now: str) -> Said:
        """The game written in `new.directory`: its signed definition and what each
        player is sent to join it."""
        ...

    def join(self, joining: Joining, now: str) -> Said:
        """The invitation answered: the player's join (or, to the other side's join in a
        referee's game, its seed), written and, if asked, mailed."""
        ...

    def demo(self, demo: Demo, now: str) -> Said:
        """A whole game between two bots, played, revealed and verified."""
        ...


def open_game(path: Path) -> Game:
    """The game `path` names (store.game_root: a game directory, or a `seki solo`
    folder), as its game.txt says it was played."""
    from ..protocol.store import game_root
    from .referee import RefereeGame
    from .two_party import TwoPartyGame

    root = game_root(path)
    return TwoPartyGame(root) if is_two_party(root) else RefereeGame(root)


def play(turn: Turn, shell: Shell) -> None:
    """`seki play`: in a two-party game, the side's turn in its own directory (the game
    opened as it was played: a referee's game directory is refused); else the referee's
    packet named, or the newest unanswered one, answered (play/packet_turn.py)."""
    if turn.path is not None and turn.path.is_dir():
        open_game(turn.path).play(turn, shell)
        return
    from ..play import packet_turn

    packet_turn.play(turn, shell)


def bot_pass(directory: Path | None, robot: Robot) -> Said:
    """`seki bot run`: one pass of a bot for cron, at its own directory of a two-party
    game, else at its mailbox of referees' games (play/autoplay.py)."""
    if directory is not None:
        return open_game(directory).bot_pass(robot)
    from ..play import autoplay

    return autoplay.bot_pass(robot)


def mode(two_party: bool) -> Mode:
    """The mode the command line asks for: `--two-party`, else a referee's game."""
    if two_party:
        from .two_party import TWO_PARTY

        return TWO_PARTY
    from .referee import REFEREE

    return REFEREE


def mode_of(body: str) -> Mode:
    """The mode of the game a signed document's body belongs to: a two-party game's
    definition says so in its format; everything else (a referee's definition, or the
    other side's join answered with a seed) is a referee's game's."""
    return mode(f"format: {GAME_FORMAT}" in body.splitlines())
