"""`seki reveal` (referee) and `seki verify` (anyone): publish the secrets after the game,
then replay and check the whole archive."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import ExitStatus, UserError
from .common import abort, key_option, load_identity, tell, utc_now


@click.command("reveal")
@click.argument("directory", type=click.Path(path_type=Path), help=N_("The game directory."))
@key_option(
    N_(
        "The key that reveals: by default the referee's, as game.txt names it; in a "
        'two-party game, your own (default: key = "NAME" in config.toml in your key '
        "directory, else the only key there)."
    )
)
@click.option(
    "--force/--no-force", default=False, help=N_("Reveal before the game is over (by agreement).")
)
def reveal(directory: Path, key: str | None, force: bool) -> None:
    """Publish every seed and the game's state key in reveal.txt, signed; in a two-party
    game, your own secret (send it to the other player)."""
    from ..games import open_game

    game = open_game(directory)
    tell(game.reveal(load_identity(key or game.revealer()), utc_now(), force))


@click.command("verify")
@click.argument("directory", type=click.Path(path_type=Path), help=N_("The game directory."))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=N_("One JSON object, for programs: verified, what was checked, or why not."),
)
def verify(directory: Path, as_json: bool) -> None:
    """Replay the game from genesis and check every signature, commitment, draw, state hash,
    sealed state and packet; exit 3 at the first discrepancy."""
    from ..games import NotVerified, open_game

    try:
        done = open_game(directory).verify()
    except UserError as exc:  # no game directory (exit 1), or one that does not verify (3)
        status = ExitStatus.NOT_VERIFIED if isinstance(exc, NotVerified) else exc.exit_status
        if as_json:
            failed = {"verified": False, "code": str(exc.code), "reason": explain(exc)}
            click.echo(json.dumps(failed, ensure_ascii=False))
            raise click.exceptions.Exit(status) from None
        if status != ExitStatus.NOT_VERIFIED:
            raise
        abort(_("does not verify: {reason}").format(reason=explain(exc)), status)
    if as_json:
        click.echo(json.dumps({"verified": True, **done.facts}, ensure_ascii=False))
        return
    for line in done.lines:
        click.echo(line)
