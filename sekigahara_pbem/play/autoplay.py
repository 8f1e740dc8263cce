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
from typing import TYPE_CHECKING

from ..crypto import signing
from ..crypto.keys import Identity
from ..crypto.keystore import default_dir
from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from ..mail.settings import MailSettings
from ..protocol import documents as docs
from ..protocol import game, joins, packets, turns
from ..protocol.store import write_atomic
from ..refusal import Refusal, UserError
from ..rules.vocab import other
from . import filing, inbox, mailbox

if TYPE_CHECKING:
    from ..games import Robot, Said

# definition, view, options, and the events the side was shown up to the packet
Decide = Callable[[game.Definition, dict, list, list], list[dict]]
Deliver = Callable[[game.Definition, Path, str], str]  # the file kept, the mail subject
Accept = Callable[[game.Definition, str], bool]  # join this game as this side?


@dataclass
class Pass:
    fetched: int = 0
    sent: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # documents it could not use, why


def run(identity: Identity, mail: MailSettings, decide: Decide) -> Pass:
    """One pass; `decide` gives the actions of one turn file from a packet's view and
    options (a bot of sekigahara_pbem.bot), and the events of the side's packets up to it
    in the folder (its belief over the enemy's blocks, bot/belief.py)."""
    folder, fetched, _notes = mailbox.collect(mail)
    report = Pass(fetched)
    deliver = mailer(mail)
    opening(identity, deliver, lambda definition, side: True, report)
    for path in sorted(_newest_packets(folder, identity).values()):
        _try(report, path, lambda p: _answer(identity, deliver, p, decide, report))
    return report


def bot_pass(robot: Robot) -> Said:
    """`seki bot run` at the bot's mailbox of referees' games: one pass (`run`) with the
    bot `robot` names deciding; what came and went, and what was not used, in words."""
    from ..bot import make_player, show_then_ask
    from ..games import Said
    from ..protocol.component_files import load_components

    settings = mailbox.for_robot(robot.mail_config)
    comp = load_components()
    # a bot that cannot be made (a bad --bot) is refused before any mail is fetched
    make_player(robot.bot, comp, {}, robot.seed, robot.plans, robot.budget)

    def decide(definition, view, options, shown):  # noqa: ANN001, ANN202
        player = make_player(
            robot.bot, comp, definition.options, robot.seed, robot.plans, robot.budget
        )
        return show_then_ask(player, shown, view, options)

    report = run(robot.identity, settings, decide)
    fetched = ngettext("{n} new message", "{n} new messages", report.fetched)
    mailed = ngettext("{n} file mailed", "{n} files mailed", len(report.sent))
    made = [f"{fetched.format(n=report.fetched)}; {mailed.format(n=len(report.sent))}"]
    made += [f"  {line}" for line in report.sent]
    told = ["  " + _("not used: {line}").format(line=line) for line in report.problems]
    return Said(made=made, told=told)


def mailer(mail: MailSettings) -> Deliver:
    """Deliver a file by mail to the game's referee."""
    return lambda definition, path, subject: mailbox.send(mail, definition, path, subject)


def opening(identity: Identity, deliver: Deliver, accept: Accept, report: Pass) -> None:
    """Join the invitations `accept` agrees to, and answer each other side's join of a
    game joined with the seed (protocol/joins.py), each once. Nothing the player holds
    vouches for an invitation, so where two different ones name its key under one game
    id, neither is joined by itself: a stranger's must not take the game's place."""
    home = default_dir()
    for game_id, paths in _invitations(home, identity, report).items():
        if _joined(game_id).exists():
            continue
        if len(paths) > 1:
            text = N_(
                "{n} different invitations to game {game} name your key: none is joined; "
                "compare each one's referee fingerprint with your referee's and join that "
                "one by hand (seki join FILE): {files}"
            )
            files = ", ".join(str(p) for p in paths)
            report.problems.append(explain(Refusal(text, n=len(paths), game=game_id, files=files)))
            continue
        _try(report, paths[0], lambda p: _join(identity, deliver, accept, p, report))
    games = inbox.joined_games(home)
    # a packet signed by its game's referee says the game has started: a seed now would
    # only be refused (the player's mail client may have sent it before seki saw the join)
    started = {head["game"] for _, _, head in inbox.packets(home / "packets", games)}
    for path in sorted((home / "joins").glob("*.txt")):
        _try(report, path, lambda p: _seed(identity, deliver, games, started, p, report))


def _invitations(home: Path, identity: Identity, report: Pass) -> dict[str, list[Path]]:
    """The invitations kept (play/filing.py) that name this key, by game id."""
    found: dict[str, list[Path]] = {}
    for path in sorted((home / "invitations").glob("*.txt")):
        try:
            definition = game.parse(docs.read_capped(path), path.name)
        except Refusal as exc:
            report.problems.append(f"{path.name}: {explain(exc)}")
            continue
        if definition.side_of(identity.public) is not None:
            found.setdefault(definition.game_id, []).append(path)
    return found


def _try(report: Pass, path: Path, step: Callable[[Path], None]) -> None:
    """One document: a bad one is reported and the pass goes on with the others."""
    try:
        step(path)
    except UserError as exc:
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


def _seed(
    identity: Identity, deliver: Deliver, games: dict, started: set[str], path: Path, report: Pass
) -> None:
    """Answer the other side's join of a game this key joined with the seed, once per
    join: each is signed by that side (play/filing.py), and the referee takes the seed
    that names the join it holds, so a second join the other side signs cannot keep the
    seed from answering the right one."""
    text = docs.read_capped(path)
    found = filing.other_join(games, text)
    if found is None:
        return
    definition, theirs = found
    side = definition.side_of(identity.public)
    if side is None or theirs.side != other(side) or definition.game_id in started:
        return
    made = mailbox.seeds_made(definition, side).values()
    if any(seed.other_join == docs.sha256(text) for seed in made):
        return
    name = mailbox.seed_name(definition, side, text)
    seed = joins.make_seed(definition, identity, text, path.name)
    _keep(deliver, definition, name, seed, f"seed {definition.game_id}", report)


def _newest_packets(folder: Path, identity: Identity) -> dict[str, Path]:
    """For each game, the newest authentic packet sent to this player's side: only the
    newest may be answered (play/inbox.py)."""
    return {game: path for game, (_, path, _) in inbox.latest(folder, identity).items()}


def _answer(identity, deliver: Deliver, path: Path, decide: Decide, report: Pass) -> None:
    """Answer a packet that asks something, once."""
    text = docs.read_capped(path)
    game_id = docs.peek_game(text, path.name)
    definition = game.parse(docs.read_capped(_joined(game_id)), f"games/{game_id}.txt")
    opened = packets.open_packet(definition, text, identity, path.name)
    if not opened.options or opened.seq in inbox.answered(game_id):
        return
    shown = inbox.shown_before(path.parent, definition, identity, opened.seq) + opened.events
    actions = decide(definition, opened.view, opened.options, shown)
    body = turns.body(definition, opened.side, opened.seq, actions)
    sealed = turns.seal(definition, signing.sign(body, identity), identity)
    name = f"turn-{game_id}-{opened.seq}-{opened.side}.signed.txt"
    _keep(deliver, definition, name, sealed, f"record {opened.seq}", report)
    inbox.remember(game_id, opened.seq)
