"""`seki play`: a whole turn in one command: the packet found and opened, the report
shown, the decision walked through with numbered choices, the turn file signed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import KeyOption, abort, load_identity, open_own_packet, write_new


def play(
    packet: Annotated[
        Path | None,
        typer.Argument(help="The packet to answer. Default: the newest unanswered one in --from."),
    ] = None,
    key: KeyOption = "",
    folder: Annotated[
        Path, typer.Option("--from", help="Where your packets are (when no PACKET is named).")
    ] = Path("."),
    choose: Annotated[
        str | None,
        typer.Option(
            help="Answer the questions from this script instead of the terminal: choice "
            "numbers in order, separated by commas; several numbers of one answer joined "
            "by '+'; '-' for the default; 'u' undoes the last answer. E.g. 3,1,-,2+4,1",
        ),
    ] = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write the report, with the map, here.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Default: turn-<game>-<seq>-<side>.signed.txt")
    ] = None,
    plan: Annotated[
        bool,
        typer.Option(
            "--plan",
            help="First file a battle plan (standing orders for your combat decisions) "
            "from plain questions; it rides with your turn, or goes alone.",
        ),
    ] = False,
) -> None:
    """Play your turn: show the packet's report, ask for your decision step by step with
    numbered choices (every legal action can be built; u undoes), then sign the turn file,
    ready to mail to the referee. No YAML to write."""
    from ..component_files import load_components
    from ..pbem.checking import signed_turn
    from ..pbem.store import write_atomic
    from ..play import console, inbox
    from ..play.session import TurnSession
    from ..reports import render_html, render_text
    from ..rules.shadow import shadow_state
    from .view import check_openings

    if not key:
        abort("--key is required: your identity's name or file")
    if choose is None and not sys.stdin.isatty():
        abort(
            "seki play asks its questions at a terminal; without one, give the answers "
            "with --choose (see seki play --help)",
            2,
        )
    try:
        identity = load_identity(key)
        packet = packet or inbox.newest(folder, identity, asked_only=not plan)
        definition, opened = open_own_packet(packet, identity)
        if html is not None:
            write_atomic(html, render_html(definition.game_id, opened, definition.options))
    except (ValueError, RuntimeError, OSError) as exc:
        abort(str(exc))
    typer.echo(f"packet {packet}")
    typer.echo(render_text(definition.game_id, opened, guided=True), nl=False)
    if html is not None:
        typer.echo(f"wrote {html} (open it in any browser)")
    ok, message = check_openings(definition.game_id, opened)
    typer.echo(message)
    if not ok:
        abort("this packet opens items the referee had not committed to")
    comp = load_components()
    shadow = shadow_state(comp, opened.view, definition.options)
    session = TurnSession(shadow, comp, opened.side, plan=plan)
    if session.question is None:
        abort(f"{packet}: nothing is asked of you in this packet")
    ask = console.script(choose) if choose is not None else console.terminal()
    try:
        console.run(session, comp, opened.view, ask, typer.echo)
        while not console.confirm(session, comp, opened.view, ask, typer.echo):
            console.run(session, comp, opened.view, ask, typer.echo)
    except console.Stopped as exc:
        abort(str(exc))
    try:
        path = out or Path(f"turn-{definition.game_id}-{opened.seq}-{opened.side}.signed.txt")
        write_new(path, signed_turn(definition, opened, session.actions, identity))
        inbox.remember(definition.game_id, opened.seq)
    except (ValueError, RuntimeError, OSError) as exc:
        abort(str(exc))
    typer.echo(f"wrote {path}: mail it to the referee")
