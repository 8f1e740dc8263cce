"""The options more than one command takes, said once (as common.key_option is), so that
no command imports another for its options: `--bot` and `--budget` (`seki bot turn`,
`seki bot run`, `seki solo`), `--web` (`seki play`, `seki solo`), and where the
referee's mail comes from (`seki mail fetch`, `seki referee run`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from .common import mail_config_option

bot_option = click.option("--bot", default="heuristic", help=N_("heuristic, search or random."))

budget_option = click.option(
    "--budget",
    type=float,
    default=1.0,
    help=N_("The search bot's seconds of thought per decision."),
)

web_option = click.option(
    "--web/--terminal",
    default=None,
    help=N_(
        "Answer on the board in your browser (a page on 127.0.0.1 for this turn), or at "
        'the terminal. Default: board = "web" in config.toml, else the terminal.'
    ),
)

spool_config_option = mail_config_option(
    N_(
        "Mail settings (TOML); default $SEKI_MAIL_CONFIG, else mail.toml in the key "
        "directory. Never inside a game directory."
    )
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
