"""A game against the computer (`seki solo`): the referee and the computer player run in
this process, on real files in a directory of the game's own, so a solo game is an
ordinary archive that `seki verify` checks like any other.

    <dir>/keys/      the referee's, the player's and the computer's identities
    <dir>/game/      the referee's game directory (records, packets, sealed states)
    <dir>/turns/     the player's signed turn files
    <dir>/solo.json  the side played, the computer player, its budget; the packets
                     answered (the story since the last turn starts after them)

The computer answers every packet that asks it as a player would (referee/demo.py's
`Bot`: only its own packets, its own key); the player is asked only its own decisions.
Run again, the same directory resumes the game where it stopped.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..crypto.keys import Identity, generate
from ..crypto.keystore import identity_path, read_identity, write_identity
from ..i18n import gettext as _
from ..protocol import chain, joins, packets
from ..protocol import game as games
from ..protocol.component_files import components_hash
from ..protocol.packets import Packet
from ..protocol.store import SOLO_SETTINGS, GameDir, write_atomic
from ..referee import adjudication
from ..referee.demo import Bot
from ..refusal import N_, Code, Refusal, UserError, side_words
from ..rules.vocab import SIDES, other

NAMES = {"referee": "referee", "player": "you", "computer": "computer"}


class SoloError(UserError):
    """A solo directory that cannot be used as asked (another side, a broken file)."""


@dataclass
class Solo:
    """A solo game on disk, loaded."""

    root: Path
    side: str
    bot_kind: str
    budget: float
    referee: Identity
    player: Identity
    computer: Identity
    definition: games.Definition

    @property
    def gd(self) -> GameDir:
        return GameDir(self.root / "game")

    @property
    def settings_path(self) -> Path:
        return self.root / SOLO_SETTINGS

    def answered(self) -> int:
        """The last packet the player answered (0: none yet)."""
        return _settings(self.settings_path)["answered"]

    def remember(self, seq: int) -> None:
        data = _settings(self.settings_path)
        data["answered"] = seq
        write_atomic(self.settings_path, json.dumps(data, indent=1, sort_keys=True))


def start(root: Path, side: str, bot_kind: str, budget: float, now: str) -> Solo:
    """A new solo game in `root` (which must not hold one): keys made, the game created,
    joined and set up (rule 5)."""
    if side not in SIDES:
        raise SoloError(N_("--side must be ishida or tokugawa"))
    keys = root / "keys"
    people = {role: generate(name) for role, name in NAMES.items()}
    for identity in people.values():
        write_identity(keys, identity)
    players = {side: people["player"], other(side): people["computer"]}
    definition = games.create(
        root / "game",
        f"solo-{secrets.token_hex(4)}",  # its own id: a player's key directory tells games apart
        people["referee"],
        {s: players[s].public for s in SIDES},
        components_hash(),
        {},
        now,
    )
    settings = {"side": side, "bot": bot_kind, "budget": budget, "answered": 0}
    write_atomic(root / SOLO_SETTINGS, json.dumps(settings, indent=1, sort_keys=True))
    for name, text in joins.opening(definition, players):
        _adjudicate(root / "game", people["referee"], name, text, now)
    return load(root)


def load(root: Path) -> Solo:
    """The solo game in `root`, as `start` left it."""
    data = _settings(root / SOLO_SETTINGS)
    keys = root / "keys"
    people = {role: read_identity(identity_path(keys, name)) for role, name in NAMES.items()}
    definition = games.load(GameDir(root / "game"))
    return Solo(
        root, data["side"], data["bot"], data["budget"], people["referee"], people["player"],
        people["computer"], definition,
    )  # fmt: skip


def exists(root: Path) -> bool:
    return (root / SOLO_SETTINGS).is_file()


def _settings(path: Path) -> dict:
    """solo.json, checked: it is the solo's own file, but a hand may have edited it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:  # boundary: json reports bad text only by raising
        raise SoloError(N_("{path} is not JSON: {reason}"), path=path, reason=exc.msg) from None
    shapes: dict[str, type | tuple[type, ...]] = {
        "side": str,
        "bot": str,
        "budget": (int, float),
        "answered": int,
    }
    if not isinstance(data, dict) or any(not isinstance(data.get(k), t) for k, t in shapes.items()):
        raise SoloError(N_("{path} is not a solo game's settings"), path=path)
    if data["side"] not in SIDES:
        raise SoloError(N_("{path} is not a solo game's settings"), path=path)
    return data


def computer(solo: Solo) -> Bot:
    """The computer player of the game; `close()` it when done (a search player keeps a
    second process, bot/rounds.py)."""
    return Bot(solo.computer, solo.definition, solo.definition.game_id, kind=solo.bot_kind,
               budget=solo.budget)  # fmt: skip


def play_computer(solo: Solo, now: str, say: Callable[[str], None], bot: Bot) -> Packet | None:
    """The computer (`computer`, kept by the caller for the whole game, so a search
    player starts its second process once a game, not once a turn) answers while the
    game waits for it; then the packet that asks the player (opened with its key), or
    None when the game is over."""
    gd = solo.gd
    while True:
        seq = gd.last_seq()
        record = chain.read_record(gd, solo.definition, seq)
        waiting = {d["side"] for d in record.body["pending"]}
        if not waiting:
            return None
        computer = other(solo.side)
        if computer in waiting:
            path = gd.packet(seq, computer)
            bot.catch_up(gd, seq)
            turn = bot.answer(path.read_text(encoding="utf-8"), str(path))
            if turn is None:
                raise RuntimeError(f"the computer was asked at record {seq} but has no option")
            say(_("the computer answers record {seq}").format(seq=seq))
            _adjudicate(gd.root, solo.referee, f"turn-{seq}-{computer}.txt", turn, now)
            continue
        return open_packet(solo, seq)


def open_packet(solo: Solo, seq: int) -> Packet:
    path = solo.gd.packet(seq, solo.side)
    return packets.open_packet(solo.definition, path.read_text(encoding="utf-8"), solo.player,
                               str(path))  # fmt: skip


def story(solo: Solo, seq: int) -> list[Packet]:
    """The player's packets after the last one it answered and before `seq`: what the
    computer did since the player's last turn."""
    return [open_packet(solo, n) for n in range(solo.answered() + 1, seq)]


def submit(solo: Solo, seq: int, turn: str, now: str) -> None:
    """The player's signed turn, adjudicated; kept under turns/ and remembered."""
    name = f"turn-{seq}-{solo.side}.signed.txt"
    path = solo.root / "turns" / name
    write_atomic(path, turn)
    _adjudicate(solo.gd.root, solo.referee, name, turn, now)
    solo.remember(seq)


def _adjudicate(root: Path, referee: Identity, name: str, text: str, now: str) -> None:
    """One input adjudicated; a refusal of a file this process made is a bug, not the
    player's mistake (the player's turn was checked as `seki turn sign` checks one)."""
    for outcome in adjudication.adjudicate(root, referee, [(name, text.encode("utf-8"))], now):
        if not outcome.accepted:
            raise RuntimeError(f"the referee refused {name}: {outcome.message}")


def check_side(solo: Solo, side: str | None) -> None:
    """A resumed game is played as the side it was started with."""
    if side is not None and side != solo.side:
        raise Refusal(
            N_("this solo game is played as {side}; start another in a new directory"),
            code=Code.NOT_ASKED,
            side=side_words(solo.side),
        )
