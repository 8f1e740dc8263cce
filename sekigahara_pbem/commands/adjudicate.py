"""`seki adjudicate`: the referee applies joins and turn files to a game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from ..i18n import gettext as _
from .common import RefereeKeyOption, abort, read_input, referee_identity, utc_now


def adjudicate(
    directory: Annotated[Path, typer.Argument(help=N_("The game directory."))],
    files: Annotated[list[Path], typer.Argument(help=N_("Join or turn files, applied in order."))],
    key: RefereeKeyOption = None,
) -> None:
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
            typer.echo(_("accepted {message}").format(message=outcome.message))
        else:
            typer.echo(_("REFUSED {reason}").format(reason=explain(outcome.refusal)))
    refused = [o for o in outcomes if not o.accepted]
    if refused:
        abort(
            _("{refused} of {total} file(s) refused").format(
                refused=len(refused), total=len(outcomes)
            )
        )
