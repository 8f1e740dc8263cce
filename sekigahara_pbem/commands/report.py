"""`seki report`: the public report of a record, from a game directory's public files."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..i18n import gettext as _
from ..refusal import Refusal
from .common import lang_option, tell, use_language


@click.command("report")
@click.argument(
    "directory", type=click.Path(path_type=Path), help=N_("The game directory (or its archive).")
)
@click.option("--seq", type=int, help=N_("The record to report (default: the last)."))
@click.option(
    "--html",
    type=click.Path(path_type=Path),
    help=N_("Also write the report as an HTML page here."),
)
@lang_option
def report(directory: Path, seq: int | None, html: Path | None, lang: str | None) -> None:
    """Print what happened in a record and the situation after it, as a spectator sees it:
    the record's public events and the public view. Nothing sealed is opened."""
    from ..protocol import chain, game
    from ..protocol.component_files import game_components
    from ..protocol.store import GameDir, game_root, write_atomic
    from ..reports import render_public_html, render_public_text
    from ..reports.archive import last_record, public_view

    use_language(lang)
    directory = game_root(directory)  # a `seki solo` folder: its game
    gd = GameDir(directory)
    definition = game.load(gd)
    last = last_record(gd)
    number = last if seq is None else seq
    if not 1 <= number <= last:
        raise Refusal(
            N_("--seq: record {seq} does not exist (records 1 to {last})"),
            seq=number,
            last=last,
        )
    record = chain.read_record(gd, definition, number)
    view, _source = public_view(gd, number, record.body["public_state"])
    events = record.body.get("events", [])
    comp = game_components(directory, definition.components)
    text = render_public_text(definition.game_id, number, view, events, comp, footer="")
    if html is not None:
        page = render_public_html(definition.game_id, number, view, events, comp)
        write_atomic(html, page)
    click.echo(text, nl=False)
    if html is not None:
        tell(_("wrote {path}").format(path=html))
