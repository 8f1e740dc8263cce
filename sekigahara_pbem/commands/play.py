"""`seki play`: a whole turn in one command: the packet found and opened, the report
shown, the decision walked through with numbered choices, the turn file signed; or a
two-party side's turn in its own directory. The command reads its options; the game
(games.play) tells the two apart."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..play.answering import on_board
from .common import (
    chosen_key,
    key_option,
    lang_option,
    load_identity,
    mail_config_option,
    shell,
    use_language,
)
from .options import web_option


@click.command("play")
@key_option()
@click.argument(
    "packet",
    type=click.Path(path_type=Path),
    required=False,
    help=N_(
        "The packet to answer, or your directory of a two-party game. Default: the "
        "newest unanswered packet in --from."
    ),
)
@click.option("--resign", is_flag=True, help=N_("Two-party game: concede, in your own record."))
@click.option(
    "--takeback",
    is_flag=True,
    help=N_("Two-party game: ask to take back your last record, before it is answered."),
)
@click.option(
    "--agree-takeback", is_flag=True, help=N_("Two-party game: agree to the other's takeback.")
)
@click.option(
    "--claim-forfeit",
    is_flag=True,
    help=N_(
        "Two-party game: claim the win, the other player being past the deadline "
        "with its record (or, at the end, with its reveal)."
    ),
)
@click.option(
    "--receive",
    "-r",
    type=click.Path(path_type=Path),
    multiple=True,
    help=N_(
        "Two-party game: a file the other player sent (its record or its reveal) "
        "to check and take in first; repeatable."
    ),
)
@click.option(
    "--from",
    "folder",
    type=click.Path(path_type=Path),
    help=N_(
        "Where your packets are, when no PACKET is named. Default: your mailbox "
        "if you have mail settings, else the current folder."
    ),
)
@mail_config_option()
@click.option("--send", is_flag=True, help=N_("Mail the signed turn file to the referee (SMTP)."))
@click.option(
    "--choose",
    help=N_(
        "Answer the questions from this script instead of the terminal: choice "
        "numbers in order, separated by commas; several numbers of one answer joined "
        "by '+'; '-' for the default; 'u' undoes the last answer. E.g. 3,1,-,2+4,1"
    ),
)
@click.option(
    "--html", type=click.Path(path_type=Path), help=N_("Also write the report, with the map, here.")
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help=N_("Default: turn-<game>-<seq>-<side>.signed.txt"),
)
@click.option(
    "--plan",
    is_flag=True,
    help=N_(
        "First file a battle plan (standing orders for your combat decisions) "
        "from plain questions; it rides with your turn, or goes alone."
    ),
)
@web_option
@lang_option
def play(
    key: str | None,
    packet: Path | None,
    resign: bool,
    takeback: bool,
    agree_takeback: bool,
    claim_forfeit: bool,
    receive: tuple[Path, ...],
    folder: Path | None,
    mail_config: Path | None,
    send: bool,
    choose: str | None,
    html: Path | None,
    out: Path | None,
    plan: bool,
    web: bool | None,
    lang: str | None,
) -> None:
    """Play your turn: show the packet's report, ask for your decision step by step with
    numbered choices (every legal action can be built; u undoes) or on the board in your
    browser (--web), then sign the turn file and seal it for the referee's eyes only, ready
    to mail. No YAML to write."""
    from ..games import Turn
    from ..games import play as play_turn

    use_language(lang)
    board = on_board(web, choose)
    key = chosen_key(key)
    asides = (resign, claim_forfeit, takeback, agree_takeback)
    turn = Turn(
        packet, load_identity(key), key, choose, mail_config, html, board,
        received=list(receive), asides=asides, folder=folder, send=send, out=out, plan=plan,
    )  # fmt: skip
    play_turn(turn, shell())
