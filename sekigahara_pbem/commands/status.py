"""`seki status`: for every game given, what is awaited, from whom, since when, and how long
is left before the deadline (public information only)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from ..refusal import UserError
from .common import utc_now


def status(
    directories: Annotated[list[Path], typer.Argument(help=N_("One or more game directories."))],
    now: Annotated[
        str | None, typer.Option(help=N_("The time to measure from (UTC); default now."))
    ] = None,
) -> None:
    """Print, per game, the last record and the decisions the game waits for."""
    from ..games import open_game
    from ..protocol import clock

    moment = now or utc_now()
    clock.parse_time(moment, "--now")
    failed = False
    for directory in directories:
        try:
            lines = open_game(directory).status(moment)
        except UserError as exc:
            typer.echo(f"seki: {explain(exc)}", err=True)  # one line per game that cannot be read
            failed = True
            continue
        typer.echo("\n".join(lines))
    if failed:
        raise typer.Exit(1)
