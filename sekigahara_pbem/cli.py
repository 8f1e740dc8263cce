"""The `seki` command: a root group whose commands live in `commands/`, one per module.

A command's module is imported, and its click command built, only when it runs: a
process runs one command, and building the whole tree cost every command about 20 ms
(issue 18). `seki --help` builds them all to list them; so does tab completion, only the
commands whose names match (docs/cli.md).

How a run ends is said by its exit status, one meaning each (refusal.ExitStatus); what it
makes goes to standard output, what it says about it to standard error.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Any

import click

from . import clickwords, helpformat
from .i18n import N_
from .i18n import gettext as _
from .refusal import EXIT_WORDS, ExitStatus

# name -> (module in commands/, its Typer app or command function), in the order of --help
COMMANDS = {
    "keys": ("keys", "app"),
    "game": ("game", "app"),
    "join": ("join", "join"),
    "turn": ("turn", "app"),
    "adjudicate": ("adjudicate", "adjudicate"),
    "view": ("view", "view"),
    "play": ("play", "play"),
    "report": ("report", "report"),
    "replay": ("replay", "replay"),
    "status": ("status", "status"),
    "takeback": ("takeback", "app"),
    "mail": ("mail", "app"),
    "referee": ("referee", "app"),
    "reveal": ("verify", "reveal"),
    "verify": ("verify", "verify"),
    "solo": ("solo", "solo"),
    "demo": ("demo", "demo"),
    "bot": ("bot", "app"),
    "scenario": ("scenario", "app"),
    "components": ("components", "app"),
    "simulate": ("simulate", "simulate"),
    "docs": ("docs", "docs"),
}

clickwords.use_seki_catalog()  # click's own words ("Usage:", "Error: ...") in seki's catalog

SHELLS = ("bash", "zsh", "fish", "powershell")  # completion.py's scripts
COMPLETE_VAR = "_SEKI_COMPLETE"  # set by those scripts when the shell asks (click's name)


def build(name: str) -> click.Command:
    """The click command `seki NAME` runs, its help in the reader's language."""
    from .commands.common import translate_help

    module, attr = COMMANDS[name]
    command: click.Command = getattr(import_module(f".commands.{module}", __package__), attr)
    command.name = name
    translate_help(command)
    helpformat.use_in([command])
    return command


class _Root(click.Group):
    """Commands built on demand (the module docstring). `--help` is printed while the
    arguments are parsed, before any command runs: the root puts the help in the
    reader's language itself (config.toml or the environment: --lang is not read yet)."""

    context_class = helpformat.Context

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from .commands.common import use_language

        use_language()  # click's "No such command" too is said in the reader's language
        if cmd_name not in COMMANDS:
            return None
        return build(cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The root's own options parsed in the reader's language (config.toml, the
        environment, `seki --lang xx`): click says a mistake in them ("No such option",
        "Missing command.") while it parses, before any command runs. Quietly: the
        command named next says a language that is not shipped."""
        from .commands.common import use_language

        use_language(quiet=True)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; the one place errors are caught (refusal.py). A `UserError`
        is said in one line, exit 1 (or the status it names: a player who stopped, an
        archive that does not verify); an `OSError`, the machine's (a file that cannot be
        read or written, a full disk), with the file, exit 74; Ctrl-C, exit 130 (at a
        prompt too: click's prompts raise Abort for it); anything else is a bug and goes on
        up to `main`."""
        from .i18n import explain
        from .refusal import UserError

        try:
            return super().invoke(ctx)
        except UserError as exc:
            click.echo(f"seki: {explain(exc)}", err=True)
            raise click.exceptions.Exit(exc.exit_status) from None
        except OSError as exc:  # the top-level handler: the machine's, not a bug
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"seki: {where}{exc.strerror or exc}", err=True)
            raise click.exceptions.Exit(ExitStatus.IO) from None
        except (KeyboardInterrupt, click.exceptions.Abort):  # click would say "Aborted!"
            click.echo("seki: " + _("interrupted"), err=True)
            raise click.exceptions.Exit(ExitStatus.INTERRUPTED) from None

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help in the reader's language, with the table of exit statuses after it."""
        from .commands.common import translate_help, use_language

        use_language()
        translate_help(self)
        self.epilog = exit_statuses()
        super().format_help(ctx, formatter)


def exit_statuses() -> str:
    """The table of exit statuses, as `seki --help` ends with it: one line each (click
    keeps the lines of a paragraph that begins with a \\b line)."""
    rows = [f"{int(status):>3}  {_(words)}" for status, words in EXIT_WORDS.items()]
    more = _("More in: seki docs cli")
    return "\n".join(["\b", _("Exit status:"), *rows, "", more])


def _version(ctx: click.Context, _param: click.Parameter, shown: bool) -> None:
    if shown:
        from . import __version__

        click.echo(f"seki {__version__}")
        ctx.exit()


def _show_completion(ctx: click.Context, param: click.Parameter, shell: str | None) -> None:
    """`--show-completion SHELL`: the script that makes SHELL complete seki's commands
    and options (click's, run through completion.COMPLETE_VAR), for the player to install."""
    if shell is not None:
        from . import completion

        click.echo(completion.script(ctx.command, _shell(shell, param)))
        ctx.exit()


def _install_completion(ctx: click.Context, param: click.Parameter, shell: str | None) -> None:
    """`--install-completion SHELL`: the script written where SHELL reads it at start
    (completion.install)."""
    if shell is not None:
        from . import completion
        from .commands.common import use_language

        use_language()  # the root's options run before any command puts words in it
        if _shell(shell, param) not in completion.INSTALLED:
            hint = _("add it to your profile yourself: seki --show-completion {shell} >> $PROFILE")
            raise click.BadParameter(hint.format(shell=shell), param=param)
        path = completion.install(ctx.command, shell)
        done = _("{shell} completion installed in {path}; it works in the next shell you open")
        click.echo(done.format(shell=shell, path=path), err=True)
        ctx.exit()


def _shell(name: str, param: click.Parameter) -> str:
    """A shell the completion scripts are written for, else a usage error (exit 2): a
    plain text option, checked here, costs every command less than a click.Choice."""
    if name not in SHELLS:
        from .commands.common import use_language

        use_language()
        shells = ", ".join(SHELLS)
        raise click.BadParameter(_("expected one of {shells}").format(shells=shells), param=param)
    return name


@click.group(
    "seki",
    cls=_Root,
    help=N_("Sekigahara play-by-email adjudicator."),
    no_args_is_help=True,
    context_settings={"show_default": True},
)
@click.option(
    "--version",
    is_flag=True,
    callback=_version,
    is_eager=True,
    expose_value=False,
    help=N_("Say the version and stop."),
)
@click.option(
    "--lang",
    expose_value=False,
    help=N_("The language you read, for every command and its help: en or hu."),
)
@click.option(
    "--install-completion",
    metavar="SHELL",
    callback=_install_completion,
    is_eager=True,
    expose_value=False,
    help=N_(
        "Install tab completion of seki's commands and options for SHELL (bash, zsh "
        "or fish), then stop."
    ),
)
@click.option(
    "--show-completion",
    metavar="SHELL",
    callback=_show_completion,
    is_eager=True,
    expose_value=False,
    help=N_(
        "Print the tab completion script for SHELL (bash, zsh, fish or powershell), to install "
        "it yourself, then stop."
    ),
)
def app() -> None:
    """The root group's own step before a command runs: none (--lang is read before the
    command line is parsed, `_root_language`; the other options stop in their callbacks)."""


def _tolerant_output() -> None:
    """Standard output and error never fail on a character their encoding lacks: piped or
    redirected under a Windows code page (cp1252 has no "ō"), a report prints with "?"
    there instead of stopping; UTF-8 output is left as it is."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _root_language(argv: list[str]) -> None:
    """`seki --lang xx ...`: taken before the command line is parsed, as the help of the
    command named after it is put into words while it is parsed (commands.common)."""
    from .commands.common import ROOT_LANGUAGE

    if len(argv) > 2 and argv[1] == "--lang":
        ROOT_LANGUAGE[:] = [argv[2]]
    elif len(argv) > 1 and argv[1].startswith("--lang="):
        ROOT_LANGUAGE[:] = [argv[1].partition("=")[2]]


def main() -> None:
    """Entry point: an error that is not the user's (the root's `invoke` says those, and
    Ctrl-C) is a bug, said as an internal error, exit 70; its traceback only with
    SEKI_DEBUG=1. A shell asking for completions (COMPLETE_VAR set) is answered by click's
    `main` (completion.py)."""
    _tolerant_output()
    _root_language(sys.argv)
    if os.environ.get(COMPLETE_VAR):  # a shell asks: PowerShell's answer is seki's own
        from . import completion

        completion.register()
    try:
        app()  # Ctrl-C is said by the root's `invoke`: click turns it into "Aborted!" here
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if os.environ.get("SEKI_DEBUG"):
            raise
        print(
            f"seki: internal error: {type(exc).__name__}: {exc} (set SEKI_DEBUG=1 for details)",
            file=sys.stderr,
        )
        sys.exit(ExitStatus.INTERNAL)
