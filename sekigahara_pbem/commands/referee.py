"""`seki referee run`: the referee as a mail robot, one pass (run it from cron)."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..refusal import ExitStatus
from .common import (
    Group,
    referee_identity,
    referee_key_option,
    report_delivery,
    tell,
    utc_now,
)
from .options import imap_option, maildir_option, mbox_option, spool_config_option

app = Group(help=N_("The referee's robot."), no_args_is_help=True)


@app.command("run")
@click.argument(
    "spool", type=click.Path(path_type=Path), help=N_("The referee's mail spool folder.")
)
@click.argument(
    "games",
    type=click.Path(path_type=Path),
    nargs=-1,
    required=True,
    help=N_("The game directories this robot runs."),
)
@referee_key_option
@maildir_option
@mbox_option
@imap_option
@spool_config_option
@click.option("--now", help=N_("The time to act at (UTC, 2026-11-22T10:00:00Z); default now."))
@click.option("--no-send", is_flag=True, help=N_("Queue mail, do not send it."))
def run(
    spool: Path,
    games: tuple[Path, ...],
    key: str | None,
    maildir: Path | None,
    mbox: Path | None,
    imap: bool,
    mail_config: Path | None,
    now: str | None,
    no_send: bool,
) -> None:
    """Fetch mail, adjudicate every turn file in it, apply missed deadlines, queue the
    packets, reminders and replies, and send them."""
    from ..mail import robot
    from ..mail import settings as settings_
    from ..mail.incoming import collector
    from ..protocol import clock
    from ..reports import mail_report

    moment = now or utc_now()
    clock.parse_time(moment, "--now")
    folders = list(games)
    settings = settings_.load(mail_config, folders)
    collect = collector(maildir, mbox, imap, mail_config, folders)
    report = robot.run(spool, folders, referee_identity(key, folders), settings, moment, collect,
                       send=not no_send, public_report=mail_report)  # fmt: skip
    collected = ngettext(
        "{time}: collected {n} message", "{time}: collected {n} messages", report.fetched
    )
    click.echo(collected.format(time=moment, n=report.fetched))
    for label, lines in (
        (_("accepted: {line}"), report.accepted),
        (_("refused: {line}"), report.refused),
        (_("ignored: {line}"), report.ignored),
        (_("deadline: {line}"), report.deadlines),
        (_("quarantined: {line}"), report.quarantined),
    ):
        for line in lines:
            click.echo(label.format(line=line))
    for line in report.errors:
        tell(f"seki: internal error, message set aside: {line}")
    queued = len(report.queued)
    click.echo(ngettext("queued {n} message", "queued {n} messages", queued).format(n=queued))
    if report.delivery is not None:
        report_delivery(report.delivery, click.echo)
    if report.errors:
        raise click.exceptions.Exit(ExitStatus.INTERNAL)
    if report.delivery is not None and report.delivery.failed:
        raise click.exceptions.Exit(ExitStatus.MAIL)
