"""`seki demo`: a whole game between two bots through the real packets and turn files."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import click

from .. import words
from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import abort, tell, utc_now


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
    from ..referee.demo import run_demo

    if bot not in ("heuristic", "search", "random"):
        abort(_("--bot: unknown bot '{bot}': expected heuristic, search or random").format(bot=bot))
    if bot == "search" and plans:
        abort(_("--plans: the search bot files no battle plan: it decides every combat"))
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="seki-demo-"))
    if directory.exists() and any(directory.iterdir()):
        abort(_("{path} exists and is not empty").format(path=directory))
    if two_party:
        _two_party(directory, bot, seed)
        return
    start = time.perf_counter()
    result = run_demo(directory, seed, utc_now(), plans=plans, bot=bot, budget=budget)
    elapsed = time.perf_counter() - start
    assert result.result is not None  # a demo is played to its end (referee/demo.py)
    over = _(
        "demo game over after {records} records ({turn_files} turn files) in {seconds} s: "
        "{result}; revealed and verified"
    )
    click.echo(
        over.format(
            records=result.records,
            turn_files=result.turn_files,
            seconds=f"{elapsed:.1f}",
            result=words.outcome(result.result),
        )
    )
    archive = _("archive: {path} (a git repository); keys: {keys}")
    tell(archive.format(path=result.game_dir, keys=directory / "keys"))
    tell(_("check it yourself: seki verify {path}").format(path=result.game_dir))
    if result.refused:  # seki's own bots, refused by seki's own referee: a bug
        refused = ngettext(
            "{n} turn file was refused: {first}",
            "{n} turn files were refused: {first}",
            len(result.refused),
        )
        abort(refused.format(n=len(result.refused), first=result.refused[0]), ExitStatus.INTERNAL)


def _two_party(directory: Path, bot: str, seed: str) -> None:
    from ..twoparty.demo import run

    if bot == "search":
        abort(_("--two-party: the demo plays heuristic or random bots"))
    start = time.perf_counter()
    result = run(directory, bot, seed)
    assert result.result is not None  # a demo is played to its end (twoparty/demo.py)
    over = _(
        "two-party demo game over after {records} records in {seconds} s: {result}, week "
        "{week}; both sides revealed and each verified the whole exchange ({entries} entries "
        "replayed)"
    )
    click.echo(
        over.format(
            records=result.records,
            seconds=f"{time.perf_counter() - start:.1f}",
            result=words.outcome(result.result),
            week=result.weeks,
            entries=result.retraced,
        )
    )
    sizes = _("records: median {size} bytes; reading one took {ms} ms (median, in process)")
    click.echo(
        sizes.format(
            size=sorted(result.sizes)[len(result.sizes) // 2],
            ms=f"{result.median_receive_ms:.0f}",
        )
    )
    sides = _("sides: {ishida} and {tokugawa}")
    tell(sides.format(ishida=directory / "ishida", tokugawa=directory / "tokugawa"))
    tell(_("check it yourself: seki verify {path}").format(path=directory / "ishida"))
