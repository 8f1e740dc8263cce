"""`seki join`: a player answers the referee's game definition with a commitment to its
seed, then the other side's join with the seed itself (protocol/joins.py)."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..i18n import gettext as _
from ..refusal import Code, Refusal
from .common import key_option, load_identity, mail_config_option, read_text, tell, utc_now


@click.command("join")
@click.argument(
    "request",
    type=click.Path(path_type=Path),
    help=N_(
        "The game definition the referee sent or, once both sides have joined, "
        "the other side's join it sent next."
    ),
)
@key_option()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help=N_(
        "Where to write your answer (a two-party game: your new game directory, default GAME-SIDE)."
    ),
)
@click.option(
    "--game",
    "game_file",
    type=click.Path(path_type=Path),
    help=N_("The game definition (default: the one remembered when you joined)."),
)
@click.option(
    "--send",
    is_flag=True,
    help=N_(
        "Mail your answer to the referee's address in game.txt (SMTP), once: a file "
        "mailed before, by this or by seki play --send, is not mailed again."
    ),
)
@mail_config_option()
def join(
    request: Path,
    key: str | None,
    out: Path | None,
    game_file: Path | None,
    send: bool,
    mail_config: Path | None,
) -> None:
    """Join a game (to its definition), or send your seed (to the other side's join)."""
    from ..crypto import signing
    from ..crypto.keystore import default_dir
    from ..play import mailbox
    from ..protocol import documents as docs
    from ..protocol import game, joins
    from ..protocol.store import write_atomic

    identity = load_identity(key)
    text = read_text(request)
    body, _signature = signing.split(text)
    if "format: seki-2p-game/1" in body.splitlines():
        if send:
            raise Refusal(N_("--send is for a game with a referee: send your join yourself"))
        _two_party(text, identity, out)
        return
    mail = mailbox.for_sending(mail_config) if send else None
    if f"format: {game.GAME_FORMAT}" in body.splitlines():
        definition = game.parse(text, str(request))
        side = joins.player_side(definition, identity)
        answer = joins.make_join(definition, identity)
        write_atomic(default_dir() / "games" / f"{definition.game_id}.txt", text)
        what, name = "join", f"join-{definition.game_id}-{side}.txt"
    else:
        game_id = docs.peek_game(text, str(request))
        definition = _definition(game_file, default_dir() / "games" / f"{game_id}.txt")
        side = joins.player_side(definition, identity)
        name, answer = _seed(definition, identity, text, str(request))
        what = "seed"
    kept = _kept(default_dir() / mailbox.SENT / name, answer)
    out = out or Path(f"{what}-{definition.game_id}-{side}.txt")
    write_atomic(out, answer)
    tell(_("game {game}: you play {side}").format(game=definition.game_id, side=_side(side)))
    if what == "join":
        referee = _(
            "referee {name} fingerprint {fingerprint} (compare it with the referee by another "
            "channel)"
        )
        tell(
            "  "
            + referee.format(
                name=definition.referee.name, fingerprint=definition.referee.fingerprint
            )
        )
    if mail is not None:
        tell(_("wrote {path}").format(path=out))
        tell(mailbox.send(mail, definition, kept, f"{what} {definition.game_id}"))
        if what == "join":
            then = _(
                "once both sides have joined, the referee mails you the other's join: "
                "seki play --send answers it with your seed"
            )
            tell(then)
    elif what == "join":
        wrote = _(
            "wrote {path}: mail it to the referee. Once both sides have joined, the referee "
            "sends you the other's join: answer it with seki join again to send your seed."
        )
        tell(wrote.format(path=out))
    else:
        wrote = _("wrote {path}: your seed, sealed to the referee; mail it to the referee")
        tell(wrote.format(path=out))


def _kept(path: Path, text: str) -> Path:
    """The copy of an answer that --send and `seki play --send` mail (play/mailbox.py,
    `unsent`), by its usual name, or by its hash where another text has that name (a join
    of another game of the same id): each file is mailed once, by its name."""
    from ..play import filing
    from ..protocol.store import write_atomic

    if path.exists() and path.read_text(encoding="utf-8") != text:
        path = path.with_name(f"{path.stem}-{filing.digest(text)}.txt")
    if not path.exists():
        write_atomic(path, text)
    return path


def _seed(definition, identity, join: str, where: str) -> tuple[str, str]:
    """The seed answering the other side's join, and its file name: the one made before
    for this very join of this game, if any, so that the referee is never sent two
    different seeds (each is sealed afresh); else a new one, named as `seki play` names it
    (play/mailbox.py)."""
    from ..play import mailbox
    from ..protocol import documents as docs
    from ..protocol import joins

    side = definition.side_of(identity.public)
    for name, made in mailbox.seeds_made(definition, side).items():
        if made.other_join == docs.sha256(join):
            return name, made.text
    return mailbox.seed_name(definition, side, join), joins.make_seed(
        definition, identity, join, where
    )


def _definition(given: Path | None, remembered: Path):
    from ..protocol import game

    path = given or remembered
    if not path.is_file():
        raise Refusal(
            N_("{name}: no game definition remembered for this game; give it with --game game.txt"),
            code=Code.WRONG_GAME,
            name=path.name,
        )
    return game.parse(read_text(path), str(path))


def _two_party(text: str, identity, out: Path | None) -> None:
    """Join a two-party game: your own directory for it, with your join record."""
    from ..twoparty import files
    from ..twoparty import side as sides

    game = files.read_game(text, "game.txt")
    side = game.side_of(identity.public)
    if side is None:  # as sides.create refuses it, before a directory is named for it
        raise Refusal(sides.NOT_A_PLAYER, code=Code.WRONG_SIDE)
    root = out or Path(f"{game.game_id}-{side}")
    joined = sides.create(root, text, identity, utc_now())
    other = next(s for s in game.players if s != side)
    you = _("game {game}: you play {side} (two-party: no referee)")
    tell(you.format(game=game.game_id, side=_side(side)))
    player = _(
        "{side}: {name} fingerprint {fingerprint} (compare it with the other player by another "
        "channel)"
    )
    public = game.players[other]
    tell("  " + player.format(side=_side(other), name=public.name, fingerprint=public.fingerprint))
    wrote = _(
        "wrote {path}: send it to the other player; take theirs with: seki play {dir} --key "
        "{key} --receive THEIR-JOIN"
    )
    tell(wrote.format(path=joined.records()[0], dir=root, key=identity.name))


def _side(side: str) -> str:
    """A side by its name in the reader's language (Isida, Tokugava)."""
    from ..reports import names

    return names.side(side)
