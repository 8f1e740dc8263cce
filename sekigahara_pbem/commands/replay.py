"""`seki replay`: a game's public records on its map, one page to step through."""

from __future__ import annotations

import tempfile
import webbrowser
from pathlib import Path

import click

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import Code, ExitStatus, Refusal
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
    the replayed states once the game is revealed, else from the public files."""
    from ..protocol import game
    from ..protocol.component_files import game_components
    from ..protocol.store import GameDir, game_root, write_atomic
    from ..referee import verify as checks
    from ..reports.archive import last_record, replayed
    from ..reports.replay import render
    from ..twoparty import is_two_party

    use_language(lang)
    directory = game_root(directory)  # a `seki solo` folder: its game
    if is_two_party(directory):
        raise Refusal(
            N_("{path}: a two-party game; seki replay reads a refereed game's archive"),
            code=Code.STORE,
            path=directory,
        )
    gd = GameDir(directory)
    definition = game.load(gd)
    last_record(gd)
    try:  # the archive is checked first; a revealed one gives each record's state
        checked = checks.verify(directory)
    except checks.Discrepancy as exc:  # as `seki verify` says it (exit 3)
        abort(_("does not verify: {reason}").format(reason=explain(exc)), ExitStatus.NOT_VERIFIED)
    comp = game_components(directory, definition.components)
    page = render(definition.game_id, replayed(gd, comp, checked.bodies, checked.states), comp)
    opened = html is None
    if html is None:
        html = Path(tempfile.mkdtemp(prefix="seki-replay-")) / f"{definition.game_id}.html"
    write_atomic(html, page)
    if opened:
        webbrowser.open(html.resolve().as_uri())
    tell(_("wrote {path}").format(path=html))
