"""`seki status`: for every game given, what is awaited, from whom, since when, and how long
is left before the deadline (public information only); with --json, the same as facts."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..i18n import N_, explain
from ..refusal import ExitStatus, UserError
from .common import utc_now


@click.command("status")
@click.argument(
    "directories",
    type=click.Path(path_type=Path),
    nargs=-1,
    required=True,
    help=N_("One or more game directories."),
)
@click.option("--now", help=N_("The time to measure from (UTC); default now."))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=N_(
        "One JSON object, for programs: now, and per game its facts or why it "
        "cannot be read (seki docs cli)."
    ),
)
def status(directories: tuple[Path, ...], now: str | None, as_json: bool) -> None:
    """Print, per game, the last record and the decisions the game waits for; with
    --json, the same facts as one JSON object (its keys: seki docs cli)."""
    from ..games import open_game
    from ..protocol import clock

    moment = now or utc_now()
    clock.parse_time(moment, "--now")
    games, failed = [], False
    for directory in directories:
        try:
            found = open_game(directory).status(moment)
        except UserError as exc:
            failed = True
            if as_json:
                error = {"code": str(exc.code), "reason": explain(exc)}
                games.append({"directory": str(directory), "error": error})
            else:  # one line per game that cannot be read
                click.echo(f"seki: {explain(exc)}", err=True)
            continue
        if as_json:
            games.append({"directory": str(directory), **found.facts})
        else:
            click.echo("\n".join(found.lines))
    if as_json:
        click.echo(json.dumps({"now": moment, "games": games}, ensure_ascii=False, indent=1))
    if failed:
        raise click.exceptions.Exit(ExitStatus.REFUSED)
