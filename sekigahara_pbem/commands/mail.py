"""`seki mail`: the referee's mail by hand: collect incoming mail into a spool, send what
the spool's outbox holds. `seki referee run` does both around an adjudication."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_, ngettext
from ..refusal import ExitStatus, Refusal
from .common import Group, report_delivery, tell
from .options import imap_option, maildir_option, mbox_option, spool_config_option

app = Group(help=N_("Collect and send the referee's mail (spool folders)."), no_args_is_help=True)

spool_argument = click.argument(
    "spool",
    type=click.Path(path_type=Path),
    help=N_("The referee's mail spool (inbox/, outbox/, sent/...)."),
)


@app.command("fetch")
@spool_argument
@maildir_option
@mbox_option
@imap_option
@spool_config_option
def fetch(
    spool: Path, maildir: Path | None, mbox: Path | None, imap: bool, mail_config: Path | None
) -> None:
    """Collect new mail into the spool's inbox (raw; nothing is lost)."""
    from ..mail import incoming as mail_in
    from ..mail.outgoing import Spool

    collect = mail_in.collector(maildir, mbox, imap, mail_config)
    if collect is None:
        raise Refusal(N_("give a source: --maildir, --mbox or --imap"))
    count = collect(Spool(spool))
    collected = ngettext(
        "collected {n} new message into {path}", "collected {n} new messages into {path}", count
    )
    tell(collected.format(n=count, path=spool / "inbox"))


@app.command("send")
@spool_argument
@spool_config_option
def send(spool: Path, mail_config: Path | None) -> None:
    """Deliver the outbox over SMTP; what fails stays queued with its error, for next time."""
    from ..mail import settings as settings_
    from ..mail.outgoing import Spool, send_outbox

    delivery = send_outbox(Spool(spool), settings_.load(mail_config))
    report_delivery(delivery, tell)
    if delivery.failed:
        raise click.exceptions.Exit(ExitStatus.MAIL)
