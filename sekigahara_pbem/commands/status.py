"""`seki status`: for every game given, what is awaited, from whom, since when, and how long
is left before the deadline (public information only)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from .common import abort, utc_now


def status(
    directories: Annotated[list[Path], typer.Argument(help=N_("One or more game directories."))],
    now: Annotated[
        str | None, typer.Option(help=N_("The time to measure from (UTC); default now."))
    ] = None,
) -> None:
    """Print, per game, the last record and the decisions the game waits for."""
    from ..pbem import clock

    moment = now or utc_now()
    try:
        clock.parse_time(moment, "--now")
    except ValueError as exc:
        abort(explain(exc))
    failed = False
    for directory in directories:
        try:
            lines = _two_party_status(directory, moment) or _game_status(directory, moment)
        except (ValueError, RuntimeError, OSError) as exc:
            typer.echo(f"seki: {exc}", err=True)  # one line per game that cannot be read
            failed = True
            continue
        typer.echo("\n".join(lines))
    if failed:
        raise typer.Exit(1)


def _game_status(directory: Path, now: str) -> list[str]:
    from ..pbem import chain, clock, game
    from ..pbem.store import GameDir

    gd = GameDir(directory)
    definition = game.load(gd)
    seq = gd.last_seq()
    if seq == 0:
        missing = [s for s in definition.players if not gd.join(s).is_file()]
        if missing:
            return [f"game {definition.game_id}: waiting for joins from {', '.join(missing)}"]
        missing = [s for s in definition.players if not gd.seed(s).is_file()]
        return [f"game {definition.game_id}: waiting for seeds from {', '.join(missing)}"]
    body = chain.read_record(gd, definition, seq).body
    lines = [f"game {definition.game_id}: record {seq} ({body['label']}) at {body['time']}"]
    if not body["pending"]:
        final = [e for e in body["events"] if e.get("type") == "game_over"]
        how = f": {final[0]['winner']} wins ({final[0]['how']})" if final else ""
        return lines + [f"  the game is over{how}"]
    for d in body["pending"]:
        since = body["asked"].get(d["side"], seq)
        asked = chain.read_record(gd, definition, since).body["time"]
        where = f" at {d['location']}" if d.get("location") else ""
        line = f"  awaiting {d['side']}: {d['decision']}{where} (asked in packet {since}, {asked})"
        entry = body.get("clock", {}).get(d["side"])
        if entry is not None:
            line += f"; due {entry['due']}, {clock.time_left(entry['due'], now)}"
        lines.append(line)
    for side in definition.players:
        if gd.request(seq, "takeback", side).is_file() and not any(
            gd.request(seq, "consent", s).is_file() for s in definition.players
        ):
            lines.append(f"  {side} asks to take back record {seq}; waiting for the answer")
    return lines


def _two_party_status(directory: Path, moment: str) -> list[str] | None:
    """A two-party game's status from its records alone (None if it is not one)."""
    from ..twoparty import side as sides

    if not sides.is_two_party(directory):
        return None
    summary = sides.summary(directory, moment)
    return [f"{directory}: {line}" if i == 0 else f"  {line}" for i, line in enumerate(summary)]
