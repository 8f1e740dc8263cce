"""`seki status`: for every game given, what is awaited, from whom, since when, and how long
is left before the deadline (public information only)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import UserError
from .common import utc_now


def status(
    directories: Annotated[list[Path], typer.Argument(help=N_("One or more game directories."))],
    now: Annotated[
        str | None, typer.Option(help=N_("The time to measure from (UTC); default now."))
    ] = None,
) -> None:
    """Print, per game, the last record and the decisions the game waits for."""
    from ..pbem import clock

    moment = now or utc_now()
    clock.parse_time(moment, "--now")
    failed = False
    for directory in directories:
        try:
            lines = _two_party_status(directory, moment) or _game_status(directory, moment)
        except UserError as exc:
            typer.echo(f"seki: {explain(exc)}", err=True)  # one line per game that cannot be read
            failed = True
            continue
        typer.echo("\n".join(lines))
    if failed:
        raise typer.Exit(1)


def _game_status(directory: Path, now: str) -> list[str]:
    from ..pbem import chain, clock, game
    from ..pbem.store import GameDir
    from ..reports import names as n

    gd = GameDir(directory)
    definition = game.load(gd)
    seq = gd.last_seq()
    if seq == 0:
        missing = [s for s in definition.players if not gd.join(s).is_file()]
        if missing:
            joins = _("game {game}: waiting for joins from {sides}")
            return [joins.format(game=definition.game_id, sides=", ".join(missing))]
        missing = [s for s in definition.players if not gd.seed(s).is_file()]
        seeds = _("game {game}: waiting for seeds from {sides}")
        return [seeds.format(game=definition.game_id, sides=", ".join(missing))]
    body = chain.read_record(gd, definition, seq).body
    head = _("game {game}: record {seq} ({label}) at {time}")
    lines = [head.format(game=definition.game_id, seq=seq, label=body["label"], time=body["time"])]
    if not body["pending"]:
        final = [e for e in body["events"] if e.get("type") == "game_over"]
        if not final:
            return [*lines, "  " + _("the game is over")]
        over = _("the game is over: {winner} wins ({how})")
        winner, how = n.side(final[0]["winner"]), n.how(final[0]["how"])
        return [*lines, "  " + over.format(winner=winner, how=how)]
    for d in body["pending"]:
        since = body["asked"].get(d["side"], seq)
        asked = chain.read_record(gd, definition, since).body["time"]
        if d.get("location"):
            line = _("awaiting {side}: {decision} at {location} (asked in packet {seq}, {time})")
        else:
            line = _("awaiting {side}: {decision} (asked in packet {seq}, {time})")
        line = line.format(
            side=n.side(d["side"]),
            decision=n.decision(d["decision"]),
            location=d.get("location"),
            seq=since,
            time=asked,
        )
        entry = body.get("clock", {}).get(d["side"])
        if entry is not None:
            due = _("; due {due}, {left}")
            line += due.format(due=entry["due"], left=clock.time_left(entry["due"], now))
        lines.append("  " + line)
    for side in definition.players:
        if gd.request(seq, "takeback", side).is_file() and not any(
            gd.request(seq, "consent", s).is_file() for s in definition.players
        ):
            asks = _("{side} asks to take back record {seq}; waiting for the answer")
            lines.append("  " + asks.format(side=side, seq=seq))
    return lines


def _two_party_status(directory: Path, moment: str) -> list[str] | None:
    """A two-party game's status from its records alone (None if it is not one)."""
    from ..twoparty import is_two_party

    if not is_two_party(directory):
        return None
    from ..twoparty import side as sides

    summary = sides.summary(directory, moment)
    return [f"{directory}: {line}" if i == 0 else f"  {line}" for i, line in enumerate(summary)]
