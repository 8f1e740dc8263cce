"""`seki view`: a player reads a packet: the referee's signature is checked and the
player's own sealed section opened with the player's key."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..i18n import gettext as _
from ..play.answering import Answering, show
from ..play.own import open_own_note, open_own_packet
from .common import (
    key_option,
    lang_option,
    load_identity,
    shell,
    use_language,
)


@click.command("view")
@click.argument(
    "packet", type=click.Path(path_type=Path), help=N_("A packet the referee sent you.")
)
@key_option()
@click.option("--all-options", is_flag=True, help=N_("List every legal option, not the first 30."))
@click.option(
    "--html",
    type=click.Path(path_type=Path),
    help=N_("Also write the report, with a map, as an HTML page here."),
)
@lang_option
def view(
    packet: Path, key: str | None, all_options: bool, html: Path | None, lang: str | None
) -> None:
    """Show what happened, the situation as you see it, and the decision asked of you (or,
    for a sealed note from the referee's robot, why it refused your file)."""
    from ..protocol.component_files import load_components
    from ..reports import render_text

    use_language(lang)
    identity = load_identity(key)
    reasons = open_own_note(packet, identity)
    if reasons is not None:
        click.echo(_("The referee refused your file:"))
        for reason in reasons:
            click.echo(f"  - {reason}")
        return
    definition, opened = open_own_packet(packet, identity)
    comp = load_components()
    text = render_text(definition.game_id, opened, comp, all_options)
    show(Answering(definition, opened, comp), text, shell(), html)
