"""The `seki` command: a root group whose sub-groups live in `commands/`, one per module.

Command modules are imported when their group runs, so `seki --help` stays fast.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from .commands import adjudicate as adjudicate_cmd
from .commands import bot as bot_cmd
from .commands import components as components_cmd
from .commands import demo as demo_cmd
from .commands import game as game_cmd
from .commands import join as join_cmd
from .commands import keys as keys_cmd
from .commands import mail as mail_cmd
from .commands import play as play_cmd
from .commands import referee as referee_cmd
from .commands import report as report_cmd
from .commands import scenario as scenario_cmd
from .commands import simulate as simulate_cmd
from .commands import status as status_cmd
from .commands import takeback as takeback_cmd
from .commands import turn as turn_cmd
from .commands import verify as verify_cmd
from .commands import view as view_cmd
from .i18n import N_
from .i18n import gettext as _


class _Root(TyperGroup):
    """`seki --help` is printed while the arguments are parsed, before any command runs:
    the root puts its help in the reader's language itself (config.toml or the
    environment: --lang is not read yet)."""

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        from .commands.common import translate_help, use_language

        use_language()
        translate_help(self)
        super().format_help(ctx, formatter)


app = typer.Typer(
    cls=_Root,
    help=N_("Sekigahara play-by-email adjudicator."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _language(ctx: typer.Context) -> None:
    """Every command speaks the reader's language (config.toml or the environment);
    view, play, report and turn check also take --lang. The help texts of every command
    are put in it here, before a command's own --help is parsed."""
    from .commands.common import translate_help, use_language

    use_language()
    translate_help(ctx.command)


app.add_typer(keys_cmd.app, name="keys")
app.add_typer(game_cmd.app, name="game")
app.command("join")(join_cmd.join)
app.add_typer(turn_cmd.app, name="turn")
app.command("adjudicate")(adjudicate_cmd.adjudicate)
app.command("view")(view_cmd.view)
app.command("play")(play_cmd.play)
app.command("report")(report_cmd.report)
app.command("status")(status_cmd.status)
app.add_typer(takeback_cmd.app, name="takeback")
app.add_typer(mail_cmd.app, name="mail")
app.add_typer(referee_cmd.app, name="referee")
app.command("reveal")(verify_cmd.reveal)
app.command("verify")(verify_cmd.verify)
app.command("demo")(demo_cmd.demo)
app.add_typer(bot_cmd.app, name="bot")
app.add_typer(scenario_cmd.app, name="scenario")
app.add_typer(components_cmd.app, name="components")
app.command("simulate")(simulate_cmd.simulate)


def main() -> None:
    """Entry point: user errors are one line; a traceback only with SEKI_DEBUG=1."""
    try:
        app()
    except KeyboardInterrupt:
        print("seki: " + _("interrupted"), file=sys.stderr)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if os.environ.get("SEKI_DEBUG"):
            raise
        print(
            f"seki: internal error: {type(exc).__name__}: {exc} (set SEKI_DEBUG=1 for details)",
            file=sys.stderr,
        )
        sys.exit(70)
