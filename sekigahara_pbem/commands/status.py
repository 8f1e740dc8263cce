"""`seki status`: whose move it is in a game, what is awaited, and since when."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import abort


def status(directory: Annotated[Path, typer.Argument(help="The game directory.")]) -> None:
    """Print the last record and the decisions the game waits for (public information)."""
    from ..pbem import chain, game
    from ..pbem.store import GameDir

    gd = GameDir(directory)
    try:
        definition = game.load(gd)
        seq = gd.last_seq()
        if seq == 0:
            missing = [s for s in definition.players if not gd.join(s).is_file()]
            typer.echo(f"game {definition.game_id}: waiting for joins from {', '.join(missing)}")
            return
        record = chain.read_record(gd, definition, seq)
    except (ValueError, RuntimeError, OSError) as exc:
        abort(str(exc))
    body = record.body
    typer.echo(f"game {definition.game_id}: record {seq} ({body['label']}) at {body['time']}")
    if not body["pending"]:
        final = [e for e in body["events"] if e.get("type") == "game_over"]
        typer.echo("the game is over" + (f": {final[0]['winner']} wins" if final else ""))
        return
    for d in body["pending"]:
        since = body["asked"].get(d["side"], seq)
        asked = chain.read_record(gd, definition, since).body["time"]
        where = f" at {d['location']}" if d.get("location") else ""
        typer.echo(
            f"awaiting {d['side']}: {d['decision']}{where} (asked in packet {since}, {asked})"
        )
