"""`seki reveal` (referee) and `seki verify` (anyone): publish the secrets after the game,
then replay and check the whole archive."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import abort, load_identity, tell, utc_now


def reveal(
    directory: Annotated[Path, typer.Argument(help=N_("The game directory."))],
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help=N_(
                "The key that reveals: by default the referee's, as game.txt names it; in a "
                "two-party game, your own (required)."
            ),
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option(help=N_("Reveal before the game is over (by agreement)."))
    ] = False,
) -> None:
    """Publish every seed and the game's state key in reveal.txt, signed; in a two-party
    game, your own secret (send it to the other player)."""
    from ..games import open_game

    game = open_game(directory)
    key = key or game.revealer()
    if key is None:
        abort(_("a two-party game: give your own key with --key"), ExitStatus.USAGE)
    tell(game.reveal(load_identity(key), utc_now(), force))


def verify(
    directory: Annotated[Path, typer.Argument(help=N_("The game directory."))],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help=N_("One JSON object, for programs: verified, what was checked, or why not."),
        ),
    ] = False,
) -> None:
    """Replay the game from genesis and check every signature, commitment, draw, state hash,
    sealed state and packet; exit 3 at the first discrepancy."""
    from ..games import NotVerified, open_game

    try:
        done = open_game(directory).verify()
    except NotVerified as exc:
        if as_json:
            failed = {"verified": False, "code": str(exc.code), "reason": explain(exc)}
            typer.echo(json.dumps(failed, ensure_ascii=False))
            raise typer.Exit(ExitStatus.NOT_VERIFIED) from None
        reason = _("does not verify: {reason}").format(reason=explain(exc))
        abort(reason, ExitStatus.NOT_VERIFIED)
    if as_json:
        typer.echo(json.dumps({"verified": True, **done.facts}, ensure_ascii=False))
        return
    for line in done.lines:
        typer.echo(line)
