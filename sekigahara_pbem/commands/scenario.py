"""`seki scenario run`: the conformance suite and rules disputes, as scenario files."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from ..refusal import UserError
from .common import Group, abort

app = Group(
    help=N_("Run scenario files (position, actions, expected results)."), no_args_is_help=True
)


@app.command("run")
@click.argument(
    "files",
    type=click.Path(path_type=Path),
    nargs=-1,
    required=True,
    help=N_("Scenario YAML files."),
)
@click.option(
    "--components",
    type=click.Path(path_type=Path),
    help=N_("Use this component folder instead of the one each scenario names."),
)
@click.option("--verbose", "-v", is_flag=True, help=N_("Always show the event log."))
def run(files: tuple[Path, ...], components: Path | None, verbose: bool) -> None:
    """Run each scenario; print PASS/FAIL per case and exit 1 if any failed."""
    from ..testing.scenario_files import load_scenario, scenario_components
    from ..testing.scenario_runner import run_scenario

    failed = 0
    for path in files:
        try:
            doc = load_scenario(path)
            comp = scenario_components(doc, path, components)
        except UserError as exc:
            click.echo(f"FAIL {path}: {explain(exc)}")
            failed += 1
            continue
        result = run_scenario(comp, doc)
        rules = f" [{', '.join(result.rules)}]" if result.rules else ""
        click.echo(f"{'PASS' if result.passed else 'FAIL'} {path.name}: {result.name}{rules}")
        for problem in result.failures:
            click.echo(f"     - {problem}")
        if result.failures or verbose:
            for line in result.log:
                click.echo(f"       {line}")
        failed += not result.passed
    click.echo(
        _("{passed} passed, {failed} failed").format(passed=len(files) - failed, failed=failed)
    )
    if failed:
        abort(ngettext("{n} scenario failed", "{n} scenarios failed", failed).format(n=failed))
