"""`seki game new`: the referee creates a game directory (a git repository)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import KeyOption, abort, load_identity, read_public, utc_now

app = typer.Typer(help="Create a game (referee).", no_args_is_help=True)


@app.command("new")
def new(
    directory: Annotated[Path, typer.Argument(help="The new game directory (must not exist).")],
    ishida: Annotated[str, typer.Option(help="Ishida player's public key line, or a file.")],
    tokugawa: Annotated[str, typer.Option(help="Tokugawa player's public key line, or a file.")],
    key: KeyOption = "referee",
    game_id: Annotated[
        str | None, typer.Option("--id", help="Game id (default: the directory's name).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="A game option NAME=true|false (docs/rulings.md); repeatable."),
    ] = None,
) -> None:
    """Write the signed game definition with your seed commitment, and the join requests."""
    from ..component_files import components_hash
    from ..pbem import game

    try:
        referee = load_identity(key)
        players = {"ishida": read_public(ishida), "tokugawa": read_public(tokugawa)}
        options = dict(_option(o) for o in option or [])
        definition = game.create(
            directory,
            game_id or directory.name,
            referee,
            players,
            components_hash(),
            options,
            utc_now(),
        )
    except (ValueError, RuntimeError) as exc:
        abort(str(exc))
    typer.echo(f"created game {definition.game_id} in {directory}")
    typer.echo(f"  referee fingerprint {definition.referee.fingerprint}")
    for side, public in definition.players.items():
        typer.echo(f"  {side}: {public.name} fingerprint {public.fingerprint}")
    typer.echo(
        f"Send {directory / 'game.txt'} to both players as their join request; each answers "
        "with: seki join game.txt --key NAME"
    )


def _option(text: str) -> tuple[str, bool]:
    name, sep, value = text.partition("=")
    if not sep or value.lower() not in ("true", "false"):
        raise ValueError(f"--option {text!r}: expected NAME=true or NAME=false")
    return name, value.lower() == "true"
