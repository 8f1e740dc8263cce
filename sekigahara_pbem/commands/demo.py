"""`seki demo`: a whole game between two bots through the real packets and turn files."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from .common import abort, utc_now


def demo(
    directory: Annotated[
        Path | None,
        typer.Argument(help=N_("Where to put the keys and the game (default: a new temp dir).")),
    ] = None,
    seed: Annotated[str, typer.Option(help=N_("Seed of the bots' choices."))] = "demo",
    plans: Annotated[
        bool, typer.Option("--plans", help=N_("The bots file battle plans (standing orders)."))
    ] = False,
    bot: Annotated[
        str,
        typer.Option("--bot", help=N_("The players: heuristic, search (docs/bot.md) or random.")),
    ] = "heuristic",
    budget: Annotated[
        float, typer.Option(help=N_("The search bots' seconds of thought per decision."))
    ] = 1.0,
    two_party: Annotated[
        bool,
        typer.Option(
            "--two-party",
            help=N_(
                "No referee: each bot keeps its own secrets in its own directory "
                "(docs/two-party.md)."
            ),
        ),
    ] = False,
) -> None:
    """Play a whole demo game between two bots, by the real files.

    Keys for a referee and two players, a new game, both bots joining, then every
    decision answered by a signed turn file and adjudicated, to the end of the game.
    The bots are heuristic players (docs/bot.md) unless `--bot search` (slower and
    stronger: a game takes some minutes per second of `--budget`) or `--bot random`.
    """
    from ..pbem.demo import run_demo

    if bot not in ("heuristic", "search", "random"):
        abort(f"--bot: unknown bot '{bot}': expected heuristic, search or random")
    if bot == "search" and plans:
        abort("--plans: the search bot files no battle plan: it decides every combat")
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="seki-demo-"))
    if directory.exists() and any(directory.iterdir()):
        abort(f"{directory} exists and is not empty")
    if two_party:
        _two_party(directory, bot, seed)
        return
    start = time.perf_counter()
    try:
        result = run_demo(directory, seed, utc_now(), plans=plans, bot=bot, budget=budget)
    except (ValueError, RuntimeError) as exc:
        abort(explain(exc))
    elapsed = time.perf_counter() - start
    outcome = result.result or {}
    typer.echo(
        f"demo game over after {result.records} records ({result.turn_files} turn files) "
        f"in {elapsed:.1f} s: {outcome.get('winner')} wins ({outcome.get('how')}); "
        "revealed and verified"
    )
    typer.echo(f"archive: {result.game_dir} (a git repository); keys: {directory / 'keys'}")
    typer.echo(f"check it yourself: seki verify {result.game_dir}")
    if result.refused:
        abort(f"{len(result.refused)} turn file(s) were refused: {result.refused[0]}")


def _two_party(directory: Path, bot: str, seed: str) -> None:
    from ..refusal import Refusal
    from ..twoparty.demo import run

    if bot == "search":
        abort("--two-party: the demo plays heuristic or random bots")
    start = time.perf_counter()
    try:
        result = run(directory, bot, seed)
    except Refusal as exc:
        abort(explain(exc))
    outcome = result.result or {}
    typer.echo(
        f"two-party demo game over after {result.records} records in "
        f"{time.perf_counter() - start:.1f} s: {outcome.get('winner')} wins "
        f"({outcome.get('how')}), week {result.weeks}; both sides revealed and each "
        f"verified the whole exchange ({result.retraced} entries replayed)"
    )
    typer.echo(
        f"records: median {sorted(result.sizes)[len(result.sizes) // 2]} bytes; "
        f"reading one took {result.median_receive_ms:.0f} ms (median, in process)"
    )
    typer.echo(f"sides: {directory / 'ishida'} and {directory / 'tokugawa'}")
    typer.echo(f"check it yourself: seki verify {directory / 'ishida'}")
