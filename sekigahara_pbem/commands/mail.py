"""`seki mail`: the referee's mail by hand: collect incoming mail into a spool, send what
the spool's outbox holds. `seki referee run` does both around an adjudication."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..i18n import N_
from ..i18n import gettext as _
from ..refusal import ExitStatus, Refusal
from .common import tell

if TYPE_CHECKING:
    from ..mail.outgoing import Delivery

app = typer.Typer(
    help=N_("Collect and send the referee's mail (spool folders)."), no_args_is_help=True
)

SpoolArg = Annotated[
    Path, typer.Argument(help=N_("The referee's mail spool (inbox/, outbox/, sent/...)."))
]
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--mail-config",
        help=N_(
            "Mail settings (TOML); default $SEKI_MAIL_CONFIG, else mail.toml in the key "
            "directory. Never inside a game directory."
        ),
    ),
]
MaildirOption = Annotated[Path | None, typer.Option(help=N_("Collect from this maildir."))]
MboxOption = Annotated[Path | None, typer.Option(help=N_("Collect from this mbox file."))]
ImapOption = Annotated[
    bool, typer.Option("--imap", help=N_("Collect from the IMAP mailbox of the mail settings."))
]


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
def fetch(
    spool: SpoolArg,
    maildir: MaildirOption = None,
    mbox: MboxOption = None,
    imap: ImapOption = False,
    mail_config: ConfigOption = None,
) -> None:
    """Collect new mail into the spool's inbox (raw; nothing is lost)."""
    from ..mail.outgoing import Spool

    collect = fetcher(maildir, mbox, imap, mail_config)
    if collect is None:
        raise Refusal(N_("give a source: --maildir, --mbox or --imap"))
    count = collect(Spool(spool))
    collected = _("collected {n} new message(s) into {path}")
    tell(collected.format(n=count, path=spool / "inbox"))


@app.command("send")
def send(spool: SpoolArg, mail_config: ConfigOption = None) -> None:
    """Deliver the outbox over SMTP; what fails stays queued with its error, for next time."""
    from ..mail import settings as settings_
    from ..mail.outgoing import Spool, send_outbox

    delivery = send_outbox(Spool(spool), settings_.load(mail_config))
    report_delivery(delivery, tell)
    if delivery.failed:
        raise typer.Exit(ExitStatus.MAIL)


def report_delivery(delivery: Delivery, say: Callable[[str], None]) -> None:
    """How many messages were sent (said with `say`), and each that was not, on standard
    error."""
    say(_("sent {n} message(s)").format(n=len(delivery.sent)))
    for name, error in sorted(delivery.failed.items()):
        failed = _("NOT SENT (kept in the outbox, retried next time): {name}: {error}")
        tell(failed.format(name=name, error=error))
