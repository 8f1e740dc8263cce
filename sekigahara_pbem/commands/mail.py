"""`seki mail`: the referee's mail by hand: collect incoming mail into a spool, send what
the spool's outbox holds. `seki referee run` does both around an adjudication."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..refusal import ExitStatus, Refusal
from .common import Group, tell

if TYPE_CHECKING:
    from ..mail.outgoing import Delivery

app = Group(help=N_("Collect and send the referee's mail (spool folders)."), no_args_is_help=True)

spool_argument = click.argument(
    "spool",
    type=click.Path(path_type=Path),
    help=N_("The referee's mail spool (inbox/, outbox/, sent/...)."),
)

config_option = click.option(
    "--mail-config",
    type=click.Path(path_type=Path),
    help=N_(
        "Mail settings (TOML); default $SEKI_MAIL_CONFIG, else mail.toml in the key "
        "directory. Never inside a game directory."
    ),
)

maildir_option = click.option(
    "--maildir", type=click.Path(path_type=Path), help=N_("Collect from this maildir.")
)

mbox_option = click.option(
    "--mbox", type=click.Path(path_type=Path), help=N_("Collect from this mbox file.")
)

imap_option = click.option(
    "--imap", is_flag=True, help=N_("Collect from the IMAP mailbox of the mail settings.")
)


def fetcher(maildir: Path | None, mbox: Path | None, imap: bool, config: Path | None, dirs=()):
    """The collection the options ask for (at most one source), as a callable(spool)."""
    from ..mail import incoming as mail_in
    from ..mail import settings as mail_config

    sources = [s for s in (maildir, mbox, imap or None) if s is not None]
    if len(sources) > 1:
        raise Refusal(N_("give one source: --maildir, --mbox or --imap"))
    if maildir is not None:
        return lambda spool: mail_in.from_maildir(spool, maildir)
    if mbox is not None:
        return lambda spool: mail_in.from_mbox(spool, mbox)
    if imap:
        server = mail_config.load(config, list(dirs)).imap
        if server is None:
            raise Refusal(N_("the mail settings have no [imap] section"))
        return lambda spool: mail_in.from_imap(spool, server)
    return None


@app.command("fetch")
@spool_argument
@maildir_option
@mbox_option
@imap_option
@config_option
def fetch(
    spool: Path, maildir: Path | None, mbox: Path | None, imap: bool, mail_config: Path | None
) -> None:
    """Collect new mail into the spool's inbox (raw; nothing is lost)."""
    from ..mail.outgoing import Spool

    collect = fetcher(maildir, mbox, imap, mail_config)
    if collect is None:
        raise Refusal(N_("give a source: --maildir, --mbox or --imap"))
    count = collect(Spool(spool))
    collected = ngettext(
        "collected {n} new message into {path}", "collected {n} new messages into {path}", count
    )
    tell(collected.format(n=count, path=spool / "inbox"))


@app.command("send")
@spool_argument
@config_option
def send(spool: Path, mail_config: Path | None) -> None:
    """Deliver the outbox over SMTP; what fails stays queued with its error, for next time."""
    from ..mail import settings as settings_
    from ..mail.outgoing import Spool, send_outbox

    delivery = send_outbox(Spool(spool), settings_.load(mail_config))
    report_delivery(delivery, tell)
    if delivery.failed:
        raise click.exceptions.Exit(ExitStatus.MAIL)


def report_delivery(delivery: Delivery, say: Callable[[str], None]) -> None:
    """How many messages were sent (said with `say`), and each that was not, on standard
    error."""
    sent = len(delivery.sent)
    say(ngettext("sent {n} message", "sent {n} messages", sent).format(n=sent))
    for name, error in sorted(delivery.failed.items()):
        failed = _("NOT SENT (kept in the outbox, retried next time): {name}: {error}")
        tell(failed.format(name=name, error=error))
