"""`seki bot run`: the computer player at its own mailbox, one pass suitable for cron.

fetch the player's mail (play/mailbox.py) → join every game whose invitation names its key
→ answer each other side's join with its seed → answer the newest packet of each game
that asks something of it → mail every file to the game's referee.

It is an ordinary keyed player: it reads only what was mailed to it (its own packets,
opened with its key), keeps its files in its key directory, and remembers what it has
answered there, so a pass run twice sends nothing twice and a person can play it by mail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..crypto import signing
from ..crypto.keys import Identity
from ..crypto.keystore import default_dir
from ..i18n import explain
from ..pbem import documents as docs
from ..pbem import game, joins, packets, turns
from ..pbem.mail_config import MailSettings
from ..pbem.store import write_atomic
from ..rules.vocab import other
from . import inbox, mailbox

Decide = Callable[[game.Definition, dict, list], list[dict]]  # definition, view, options
Deliver = Callable[[game.Definition, Path, str], str]  # the file kept, the mail subject
Accept = Callable[[game.Definition, str], bool]  # join this game as this side?


@dataclass
class Pass:
    fetched: int = 0
    sent: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # documents it could not use, why


def run(identity: Identity, mail: MailSettings, decide: Decide) -> Pass:
    """One pass; `decide` gives the actions of one turn file from a packet's view and
    options (a bot of sekigahara_pbem.bot)."""
    folder, fetched, _notes = mailbox.collect(mail)
    report = Pass(fetched)
    deliver = mailer(mail)
    opening(identity, deliver, lambda definition, side: True, report)
    for path in sorted(_newest_packets(folder, identity).values()):
        _try(report, path, lambda p: _answer(identity, deliver, p, decide, report))
    return report


def mailer(mail: MailSettings) -> Deliver:
    """Deliver a file by mail to the game's referee."""
    return lambda definition, path, subject: mailbox.send(mail, definition, path, subject)


def opening(identity: Identity, deliver: Deliver, accept: Accept, report: Pass) -> None:
    """Join the invitations `accept` agrees to, and answer each other side's join of a
    game joined with the seed (pbem/joins.py), each once."""
    home = default_dir()
    for path in sorted((home / "invitations").glob("*.txt")):
        _try(report, path, lambda p: _join(identity, deliver, accept, p, report))
    for path in sorted((home / "joins").glob("*.txt")):
        _try(report, path, lambda p: _seed(identity, deliver, p, report))


def _try(report: Pass, path: Path, step: Callable[[Path], None]) -> None:
    """One document: a bad one is reported and the pass goes on with the others."""
    try:
        step(path)
    except (ValueError, RuntimeError, OSError) as exc:
        report.problems.append(f"{path.name}: {explain(exc)}")


def _joined(game_id: str) -> Path:
    return default_dir() / "games" / f"{game_id}.txt"


def _sent(name: str) -> Path:
    return default_dir() / "sent" / name


def _keep(deliver: Deliver, definition, name: str, text: str, subject: str, report) -> None:
    path = _sent(name)
    write_atomic(path, text)
    report.sent.append(deliver(definition, path, subject))


def _join(identity: Identity, deliver: Deliver, accept: Accept, path: Path, report) -> None:
    """Join a game whose definition names this key, once, if `accept` agrees."""
    text = docs.read_capped(path)
    definition = game.parse(text, path.name)
    side = definition.side_of(identity.public)
    if side is None or _joined(definition.game_id).exists() or not accept(definition, side):
        return
    answer = joins.make_join(definition, identity)
    write_atomic(_joined(definition.game_id), text)
    name = f"join-{definition.game_id}-{side}.txt"
    _keep(deliver, definition, name, answer, f"join {definition.game_id}", report)


def _seed(identity: Identity, deliver: Deliver, path: Path, report: Pass) -> None:
    """Answer the other side's join of a game this key joined with its seed, once."""
    text = docs.read_capped(path)
    game_id = docs.peek_game(text, path.name)
    if not _joined(game_id).exists():
        return
    definition = game.parse(docs.read_capped(_joined(game_id)), f"games/{game_id}.txt")
    side = definition.side_of(identity.public)
    if side is None or path.stem != f"{game_id}-{other(side)}":
        return
    name = f"seed-{game_id}-{side}.txt"
    if _sent(name).exists():
        return
    seed = joins.make_seed(definition, identity, text, path.name)
    _keep(deliver, definition, name, seed, f"seed {game_id}", report)


def _newest_packets(folder: Path, identity: Identity) -> dict[str, Path]:
    """For each game, the packet with the highest number sent to this player's side:
    only the newest may be answered (an older one is stale)."""
    newest: dict[str, tuple[int, Path]] = {}
    for path in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
        head = inbox.public_part(docs.read_capped(path))
        if head is None or not _joined(str(head.get("game"))).exists():
            continue
        seq = head.get("seq")
        if isinstance(seq, int) and seq > newest.get(head["game"], (0, path))[0]:
            newest[head["game"]] = (seq, path)
    return {g: p for g, (_, p) in newest.items()}


def _answer(identity, deliver: Deliver, path: Path, decide: Decide, report: Pass) -> None:
    """Answer a packet that asks something, once."""
    text = docs.read_capped(path)
    game_id = docs.peek_game(text, path.name)
    definition = game.parse(docs.read_capped(_joined(game_id)), f"games/{game_id}.txt")
    opened = packets.open_packet(definition, text, identity, path.name)
    if not opened.options or opened.seq in inbox.answered(game_id):
        return
    actions = decide(definition, opened.view, opened.options)
    body = turns.body(game_id, opened.side, opened.seq, actions)
    sealed = turns.seal(definition, signing.sign(body, identity), identity)
    name = f"turn-{game_id}-{opened.seq}-{opened.side}.signed.txt"
    _keep(deliver, definition, name, sealed, f"record {opened.seq}", report)
    inbox.remember(game_id, opened.seq)
