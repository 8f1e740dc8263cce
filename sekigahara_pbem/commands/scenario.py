"""`seki scenario run`: the conformance suite and rules disputes, as scenario files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import UserError
from .common import abort

app = typer.Typer(
    help=N_("Run scenario files (position, actions, expected results)."), no_args_is_help=True
)


@app.command("run")
def run(
    files: Annotated[list[Path], typer.Argument(help=N_("Scenario YAML files."))],
    components: Annotated[
        Path | None,
        typer.Option(help=N_("Use this component folder instead of the one each scenario names.")),
    ] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help=N_("Always show the event log."))
    ] = False,
) -> None:
    """Run each scenario; print PASS/FAIL per case and exit 1 if any failed."""
    from ..testing.scenario_files import load_scenario, scenario_components
    from ..testing.scenario_runner import run_scenario

    failed = 0
    for path in files:
        try:
            doc = load_scenario(path)
            comp = scenario_components(doc, path, components)
        except UserError as exc:
            typer.echo(f"FAIL {path}: {explain(exc)}")
            failed += 1
            continue
        result = run_scenario(comp, doc)
        rules = f" [{', '.join(result.rules)}]" if result.rules else ""
        typer.echo(f"{'PASS' if result.passed else 'FAIL'} {path.name}: {result.name}{rules}")
        for problem in result.failures:
            typer.echo(f"     - {problem}")
        if result.failures or verbose:
            for line in result.log:
                typer.echo(f"       {line}")
        failed += not result.passed
    typer.echo(
        _("{passed} passed, {failed} failed").format(passed=len(files) - failed, failed=failed)
    )
    if failed:
        abort(_("{n} scenario(s) failed").format(n=failed))
