"""`seki simulate`: complete random games on the engine alone, as a fuzzer and a census."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import abort, tell


@click.command("simulate")
@click.option(
    "--games", type=click.IntRange(min=1), default=100, help=N_("How many complete games to play.")
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    help=N_("Seed of the first game; the others follow it."),
)
@click.option(
    "--check/--no-check",
    default=True,
    help=N_(
        "Check every invariant after every action (conservation, bookkeeping, "
        "views that leak nothing, a legal option for every decision)."
    ),
)
@click.option(
    "--components",
    type=click.Path(path_type=Path),
    help=N_("Component folder (default: the built-in set)."),
)
def simulate(games: int, seed: int, check: bool, components: Path | None) -> None:
    """Play GAMES random legal games from seeds SEED, SEED+1, ... and print what happened.

    Exits 70 (a bug in seki) at the first violated invariant or crash, naming the seed
    and the action number: `seki simulate --games 1 --seed N` replays that game.
    """
    from ..protocol.component_files import load_components
    from ..testing.invariant_fuzzer import simulate as run

    comp = load_components(components)
    summary = run(comp, games, seed, check)
    n = max(summary.games, 1)
    totals = ngettext(
        "{games} game, {actions} actions in {seconds} s ({rate} games/s, {per_game} actions "
        "per game)",
        "{games} games, {actions} actions in {seconds} s ({rate} games/s, {per_game} actions "
        "per game)",
        summary.games,
    )
    click.echo(
        totals.format(
            games=summary.games,
            actions=summary.actions,
            seconds=f"{summary.seconds:.1f}",
            rate=f"{summary.games / max(summary.seconds, 1e-9):.1f}",
            per_game=f"{summary.actions / n:.0f}",
        )
    )
    wins = ", ".join(f"{side} {k}" for side, k in sorted(summary.winners.items()))
    how = ", ".join(f"{kind} {k}" for kind, k in sorted(summary.victories.items()))
    click.echo(_("winners: {wins}; victories: {how}").format(wins=wins or "-", how=how or "-"))
    for name, k in sorted(summary.events.items()):
        count = _("{name}: {n} ({rate} per game)")
        click.echo("  " + count.format(name=name, n=k, rate=f"{k / n:.1f}"))
    v = summary.violation
    if v is not None:
        for problem in v.problems:
            tell(f"  ! {problem}")
        violated = _("invariant violated in game seed {seed} at action {action}")
        abort(violated.format(seed=v.seed, action=v.action), ExitStatus.INTERNAL)
