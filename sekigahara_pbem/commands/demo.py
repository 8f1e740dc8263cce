"""`seki demo`: a whole game between two bots through the real packets and turn files."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from ..i18n import N_
from ..i18n import gettext as _
from .common import abort, said, utc_now


@click.command("demo")
@click.argument(
    "directory",
    type=click.Path(path_type=Path),
    required=False,
    help=N_("Where to put the keys and the game (default: a new temp dir)."),
)
@click.option("--seed", default="demo", help=N_("Seed of the bots' choices."))
@click.option("--plans", is_flag=True, help=N_("The bots file battle plans (standing orders)."))
@click.option(
    "--bot",
    default="heuristic",
    help=N_("The players: heuristic, search (seki docs bot) or random."),
)
@click.option(
    "--budget",
    type=float,
    default=1.0,
    help=N_("The search bots' seconds of thought per decision."),
)
@click.option(
    "--two-party",
    is_flag=True,
    help=N_(
        "No referee: each bot keeps its own secrets in its own directory (seki docs two-party)."
    ),
)
def demo(
    directory: Path | None, seed: str, plans: bool, bot: str, budget: float, two_party: bool
) -> None:
    """Play a whole demo game between two bots, by the real files.

    Keys for a referee and two players, a new game, both bots joining, then every
    decision answered by a signed turn file and adjudicated, to the end of the game.
    The bots are heuristic players (seki docs bot) unless `--bot search` (slower and
    stronger: a game takes some minutes per second of `--budget`) or `--bot random`.
    """
    from ..games import Demo, mode

    if bot not in ("heuristic", "search", "random"):
        abort(_("--bot: unknown bot '{bot}': expected heuristic, search or random").format(bot=bot))
    if bot == "search" and plans:
        abort(_("--plans: the search bot files no battle plan: it decides every combat"))
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="seki-demo-"))
    if directory.exists() and any(directory.iterdir()):
        abort(_("{path} exists and is not empty").format(path=directory))
    said(mode(two_party).demo(Demo(directory, seed, bot, plans, budget), utc_now()))
