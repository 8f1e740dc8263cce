"""`seki referee run`: the referee as a mail robot, one pass (run it from cron)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import RefereeKeyOption, referee_identity, tell, utc_now
from .mail import ConfigOption, ImapOption, MaildirOption, MboxOption, fetcher, report_delivery

app = typer.Typer(help=N_("The referee's robot."), no_args_is_help=True)


@app.command("run")
def run(
    spool: Annotated[Path, typer.Argument(help=N_("The referee's mail spool folder."))],
    games: Annotated[list[Path], typer.Argument(help=N_("The game directories this robot runs."))],
    key: RefereeKeyOption = None,
    maildir: MaildirOption = None,
    mbox: MboxOption = None,
    imap: ImapOption = False,
    mail_config: ConfigOption = None,
    now: Annotated[
        str | None,
        typer.Option(help=N_("The time to act at (UTC, 2026-11-22T10:00:00Z); default now.")),
    ] = None,
    no_send: Annotated[
        bool, typer.Option("--no-send", help=N_("Queue mail, do not send it."))
    ] = False,
) -> None:
    """Fetch mail, adjudicate every turn file in it, apply missed deadlines, queue the
    packets, reminders and replies, and send them."""
    from ..mail import robot
    from ..mail import settings as settings_
    from ..protocol import clock
    from ..reports import mail_report

    moment = now or utc_now()
    clock.parse_time(moment, "--now")
    settings = settings_.load(mail_config, games)
    collect = fetcher(maildir, mbox, imap, mail_config, games)
    report = robot.run(spool, games, referee_identity(key, games), settings, moment, collect,
                       send=not no_send, public_report=mail_report)  # fmt: skip
    collected = _("{time}: collected {n} message(s)")
    typer.echo(collected.format(time=moment, n=report.fetched))
    for label, lines in (
        (_("accepted: {line}"), report.accepted),
        (_("refused: {line}"), report.refused),
        (_("ignored: {line}"), report.ignored),
        (_("deadline: {line}"), report.deadlines),
        (_("quarantined: {line}"), report.quarantined),
    ):
        for line in lines:
            typer.echo(label.format(line=line))
    for line in report.errors:
        tell(f"seki: internal error, message set aside: {line}")
    typer.echo(_("queued {n} message(s)").format(n=len(report.queued)))
    if report.delivery is not None:
        report_delivery(report.delivery, typer.echo)
    if report.errors:
        raise typer.Exit(ExitStatus.INTERNAL)
    if report.delivery is not None and report.delivery.failed:
        raise typer.Exit(ExitStatus.MAIL)
