"""`seki replay`: a game's public records on its map, one page to step through."""

from __future__ import annotations

import tempfile
import webbrowser
from pathlib import Path

import click

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import abort, lang_option, tell, use_language


@click.command("replay")
@click.argument(
    "directory", type=click.Path(path_type=Path), help=N_("The game directory (or its archive).")
)
@click.option(
    "--html",
    type=click.Path(path_type=Path),
    help=N_("Write the page here, to keep or publish (default: a temporary file, opened)."),
)
@lang_option
def replay(directory: Path, html: Path | None, lang: str | None) -> None:
    """Step through a game record by record, as a spectator sees it: each record's map
    with its moves and battles, what happened in words and the game at a glance, on one
    self-contained page (forward and back by button, slider or key). The archive is
    verified first; the maps show what a spectator sees (hidden blocks as counts), from
    the replayed states once the game is revealed, else from the public files (a
    two-party game's records: their public forms, and each action in words)."""
    from ..games import NotVerified, open_game
    from ..protocol.store import write_atomic
    from ..reports.replay import render

    use_language(lang)
    try:
        shown = open_game(directory).replay()
    except NotVerified as exc:  # as `seki verify` says it (exit 3)
        abort(_("does not verify: {reason}").format(reason=explain(exc)), ExitStatus.NOT_VERIFIED)
    page = render(shown.game_id, shown.records, shown.comp)
    opened = html is None
    if html is None:
        html = Path(tempfile.mkdtemp(prefix="seki-replay-")) / f"{shown.game_id}.html"
    write_atomic(html, page)
    if opened:
        webbrowser.open(html.resolve().as_uri())
    tell(_("wrote {path}").format(path=html))
