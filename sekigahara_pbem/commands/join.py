"""`seki join`: a player answers the referee's game definition with a commitment to its
seed, then the other side's join with the seed itself (protocol/joins.py)."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from .common import key_option, load_identity, mail_config_option, read_text, said, utc_now


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
    from ..games import Joining, mode_of

    identity = load_identity(key)
    text = read_text(request)
    body, _signature = signing.split(text)
    joining = Joining(text, str(request), identity, out, game_file, send, mail_config)
    said(mode_of(body).join(joining, utc_now()))
