"""`seki view`: a player reads a packet: the referee's signature is checked and the
player's own sealed section opened with the player's key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .common import KeyOption, abort, load_identity, open_own_note, open_own_packet


def view(
    packet: Annotated[Path, typer.Argument(help="A packet the referee sent you.")],
    key: KeyOption,
    all_options: Annotated[
        bool, typer.Option("--all-options", help="List every legal option, not the first 30.")
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write the report, with a map, as an HTML page here."),
    ] = None,
) -> None:
    """Show what happened, the situation as you see it, and the decision asked of you (or,
    for a sealed note from the referee's robot, why it refused your file)."""
    from ..reports import render_text

    try:
        identity = load_identity(key)
        reasons = open_own_note(packet, identity)
        if reasons is not None:
            typer.echo("The referee refused your file:")
            for reason in reasons:
                typer.echo(f"  - {reason}")
            return
        definition, opened = open_own_packet(packet, identity)
    except (ValueError, RuntimeError, OSError) as exc:
        abort(str(exc))
    show(definition, opened, render_text(definition.game_id, opened, all_options), html)


def show(definition, opened, text: str, html: Path | None) -> None:
    """Print a packet's report (and write its page), then check what it opens: a packet
    that opens items the referee had not committed to stops the command here."""
    from ..pbem.store import write_atomic
    from ..reports import render_html

    if html is not None:
        try:
            write_atomic(html, render_html(definition.game_id, opened, definition.options))
        except OSError as exc:
            abort(f"{html}: cannot write: {exc.strerror}")
    typer.echo(text, nl=False)
    if html is not None:
        typer.echo(f"wrote {html} (open it in any browser)")
    ok, message = check_openings(definition.game_id, opened)
    typer.echo(message)
    if not ok:
        abort("this packet opens items the referee had not committed to")


def check_openings(game_id: str, packet) -> tuple[bool, str]:
    """Check what this packet opens against the commitments of the packet before it (if
    you have viewed it), and remember this packet's commitments for the next one."""
    from ..crypto.keystore import default_dir
    from ..pbem.commitments import check_opening
    from ..pbem.store import write_atomic

    path = default_dir() / "games" / f"{game_id}.roots.json"
    try:
        roots = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        roots = {}
    if packet.root:
        roots[str(packet.seq)] = packet.root
        write_atomic(path, json.dumps(roots, sort_keys=True))
    if not packet.openings:
        return True, "commitments: nothing opened in this packet"
    previous = roots.get(str(packet.seq - 1))
    if previous is None:
        return True, (
            f"commitments: {len(packet.openings)} opening(s) not checked: view packet "
            f"{packet.seq - 1} first"
        )
    bad = [o["value"] for o in packet.openings if not check_opening(o, previous)]
    if bad:
        return False, f"COMMITMENTS BROKEN: {bad} were not committed in packet {packet.seq - 1}"
    return True, (
        f"commitments: all {len(packet.openings)} item(s) shown here were committed in "
        f"packet {packet.seq - 1}"
    )
