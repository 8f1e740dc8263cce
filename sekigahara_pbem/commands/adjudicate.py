"""`seki adjudicate`: the referee applies joins and turn files to a game."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from .common import abort, read_input, referee_identity, referee_key_option, utc_now


@click.command("adjudicate")
@click.argument("directory", type=click.Path(path_type=Path), help=N_("The game directory."))
@click.argument(
    "files",
    type=click.Path(path_type=Path),
    nargs=-1,
    required=True,
    help=N_("Join or turn files, applied in order."),
)
@referee_key_option
def adjudicate(directory: Path, files: tuple[Path, ...], key: str | None) -> None:
    """Verify and apply each file; write records, sealed states and packets; commit.

    A refused file is kept under rejected/ with the reason and changes nothing; the exit
    status is 1 if any file was refused.
    """
    from ..referee import adjudication as referee

    identity = referee_identity(key, [directory])
    inputs = [(p.name, read_input(p)) for p in files]
    outcomes = referee.adjudicate(directory, identity, inputs, utc_now())
    for outcome in outcomes:
        if outcome.refusal is None:
            click.echo(_("accepted {message}").format(message=outcome.message))
        else:
            click.echo(_("REFUSED {reason}").format(reason=explain(outcome.refusal)))
    refused = [o for o in outcomes if not o.accepted]
    if refused:
        abort(
            ngettext(
                "{refused} of {total} file refused",
                "{refused} of {total} files refused",
                len(outcomes),
            ).format(refused=len(refused), total=len(outcomes))
        )
