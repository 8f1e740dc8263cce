"""`seki view`: a player reads a packet: the referee's signature is checked and the
player's own sealed section opened with the player's key."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import (
    abort,
    key_option,
    lang_option,
    load_identity,
    open_own_note,
    open_own_packet,
    tell,
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
    show(definition, opened, render_text(definition.game_id, opened, comp, all_options), html, comp)


def show(
    definition, opened, text: str, html: Path | None, comp, earlier: list = (),
    home: Path | None = None,
) -> None:  # fmt: skip
    """Print a packet's report (and write its page), then check what it opens, and what
    each of the `earlier` packets told in it opened, in order, saying how on standard
    error: a packet that opens items the referee had not committed to stops the command
    here (exit 3). `home`: the key directory
    where the commitments are kept (default: the player's)."""
    from ..protocol.store import write_atomic
    from ..reports import render_html

    if html is not None:
        page = render_html(definition.game_id, opened, comp, definition.options, earlier)
        write_atomic(html, page)
    click.echo(text, nl=False)
    if html is not None:
        tell(_("wrote {path} (open it in any browser)").format(path=html))
    for packet in [*earlier, opened]:
        ok, message = check_openings(definition.game_id, packet, home)
        if not ok or packet is opened:
            tell(message)
        if not ok:
            broken = _("this packet opens items the referee had not committed to")
            abort(broken, ExitStatus.NOT_VERIFIED)


def check_openings(game_id: str, packet, home: Path | None = None) -> tuple[bool, str]:
    """Check what this packet opens against the commitments of the packet before it (if
    you have viewed it), and remember this packet's commitments for the next one, in the
    key directory `home` (default: the player's)."""
    from ..crypto.keystore import default_dir
    from ..protocol.commitments import check_opening
    from ..protocol.store import write_atomic

    path = (home or default_dir()) / "games" / f"{game_id}.roots.json"
    roots = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if packet.root:
        roots[str(packet.seq)] = packet.root
        write_atomic(path, json.dumps(roots, sort_keys=True))
    if not packet.openings:
        return True, _("commitments: nothing opened in this packet")
    previous = roots.get(str(packet.seq - 1))
    if previous is None:
        text = ngettext(
            "commitments: {n} opening not checked: view packet {seq} first",
            "commitments: {n} openings not checked: view packet {seq} first",
            len(packet.openings),
        )
        return True, text.format(n=len(packet.openings), seq=packet.seq - 1)
    bad = [o["value"] for o in packet.openings if not check_opening(o, previous)]
    if bad:
        text = _("COMMITMENTS BROKEN: {items} were not committed in packet {seq}")
        return False, text.format(items=bad, seq=packet.seq - 1)
    text = ngettext(
        "commitments: the {n} item shown here was committed in packet {seq}",
        "commitments: all {n} items shown here were committed in packet {seq}",
        len(packet.openings),
    )
    return True, text.format(n=len(packet.openings), seq=packet.seq - 1)
