"""What every command shares: the one way to stop with a user-facing error, the one way
to speak to the person beside what the command makes (`tell`), the help in their language."""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from .. import clickwords
from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..refusal import Code, ExitStatus, Refusal, UsageError, quoted

FC = TypeVar("FC", bound=Callable[..., Any])  # what an option decorates: a command

if TYPE_CHECKING:
    from ..crypto.keys import Identity, PublicKey
    from ..games import Said, Shell
    from ..mail.outgoing import Delivery


class Group(click.Group):
    """A group of commands (seki keys, seki game, ...) listed in the order they are
    written, as the help and tab completion show them, not alphabetically."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


def abort(text: str, code: ExitStatus = ExitStatus.REFUSED) -> NoReturn:
    """Print a one-line error to stderr and exit with `code` (refusal.ExitStatus)."""
    click.echo(f"seki: {text}", err=True)
    raise click.exceptions.Exit(code)


def tell(text: str) -> None:
    """A word to the person who ran the command (what it wrote, what to do next, how it
    went), on standard error: standard output carries only what the command makes (a
    key, a report, a JSON document), for a file or a pipe (docs/cli.md)."""
    click.echo(text, err=True)


def said(words: Said) -> None:
    """What a game's mode had to say (games.Said), printed: what it made on standard
    output, the rest to the person; a failure of seki's own ends the command (exit 70)."""
    for line in words.made:
        click.echo(line)
    for line in words.told:
        tell(line)
    if words.bug is not None:
        abort(words.bug, ExitStatus.INTERNAL)


_KEY_HELP = N_(
    "Your identity: a name in the key directory ($SEKI_HOME, else seki's folder "
    "among your settings: ~/.config/seki on Linux) or the path of an identity file. "
    'Default: key = "NAME" in config.toml there, else the only key there.'
)


def key_option(words: str = _KEY_HELP) -> Callable[[FC], FC]:
    """`--key`, the identity a command uses, the same on every command: never required,
    as a key left out is chosen (`chosen_key`, through `load_identity`); `words`, the
    help of a command whose own default comes first (the referee key game.txt names)."""
    return click.option("--key", help=words)


referee_key_option = key_option(
    N_(
        "The referee's identity: a name in the key directory ($SEKI_HOME, else seki's "
        "folder among your settings: ~/.config/seki on Linux) or the path of an identity "
        "file; by default the referee key the game's game.txt names."
    )
)


def chosen_key(key: str | None, usual: str | None = None) -> str:
    """The identity a command uses, as ssh chooses a key for a person who names none:
    `--key`; else `usual` (the name a role has by custom: "referee"), if the key
    directory holds it; else `key = "NAME"` in its config.toml (preferences.py); else its
    only key. Anything else is a usage error naming the keys there, or how to make one:
    a key is never guessed among several."""
    if key is not None:
        return key
    from .. import preferences
    from ..crypto.keystore import SUFFIX, default_dir, list_identities

    directory = default_dir()
    names = [p.name.removesuffix(SUFFIX) for p in list_identities(directory)]
    config = directory / preferences.SETTINGS_FILE
    named = preferences.key(directory)
    if usual in names:
        return usual
    if named is None and len(names) == 1:
        return names[0]
    if named is None:
        raise _no_key(directory, names, config)
    if named not in names:
        raise UsageError(
            N_("{config}: key = {name}: no such key in {directory} (keys there: {names})"),
            config=config, name=quoted(named), directory=directory,
            names=", ".join(names) or "-",
        )  # fmt: skip
    return str(named)


def _no_key(directory: Path, names: list[str], config: Path) -> UsageError:
    """Why no key could be chosen: none there (and how to make one), or several."""
    if not names:
        return UsageError(
            N_("no --key given, and no key in {directory}: make one with: seki keys new NAME"),
            directory=directory,
        )
    return UsageError(
        N_(
            "no --key given, and {directory} holds {names}: give --key NAME, or put "
            'key = "NAME" in {config}'
        ),
        directory=directory, names=", ".join(names), config=config,
    )  # fmt: skip


_MAIL_CONFIG_HELP = N_(
    "Your mail settings (default: $SEKI_MAIL_CONFIG, else mail.toml in your "
    "key directory; see seki docs play)."
)


def mail_config_option(words: str = _MAIL_CONFIG_HELP) -> Callable[[FC], FC]:
    """`--mail-config`, the mail settings a command uses, the same on every command;
    `words`, the help of one whose settings are the referee's (options.py)."""
    return click.option("--mail-config", type=click.Path(path_type=Path), help=words)


lang_option = click.option(
    "--lang",
    help=N_(
        "The language you read: en or hu (default: lang in config.toml in your key "
        "directory, else $LANGUAGE, $LC_ALL, $LC_MESSAGES or $LANG, else English)."
    ),
)


ROOT_LANGUAGE: list[str] = []  # `seki --lang xx COMMAND` (cli.main reads it first)


def use_language(option: str | None = None, quiet: bool = False) -> None:
    """Put this command's words in the reader's language (i18n.choose): the command's
    --lang, else the root's, else config.toml's, else the environment's. A --lang not
    shipped is a usage error (exit 2), said in the language the rest would choose (it
    may run while the command line is parsed, for --help, outside the root's `invoke`);
    one that config.toml names is a one-line note (unless `quiet`: said elsewhere), and
    English is used."""
    from .. import i18n
    from ..crypto.keydir import default_dir

    try:
        lang, note = i18n.choose(option or next(iter(ROOT_LANGUAGE), None), default_dir())
    except UsageError as exc:
        i18n.activate(i18n.choose(None, default_dir())[0])
        abort(i18n.explain(exc), exc.exit_status)
    if note and not quiet:
        click.echo(f"seki: note: {note}", err=True)
    i18n.activate(lang)


def shown_help(doc: str) -> str:
    """A command's description as the help shows it: its docstring cleaned
    (inspect.cleandoc), cut at a form feed, each paragraph flowed (`flowed`). The message
    id of a description (i18n_extract.py extracts the commands' docstrings in this form):
    a translator reads a paragraph as one line, as the help prints it."""
    return flowed(inspect.cleandoc(doc).partition("\f")[0].rstrip())


def translate_help(command: click.Command) -> None:
    """Put the help texts of `command` and of every command under it in the reader's
    language, in place, each paragraph flowed (`flowed`). Help strings are marked with N_
    where they are written (module level, before any language is known), a command's
    description is its docstring (extracted by i18n_extract.py); a text without a
    translation stays English. The commands are built once per process (module level),
    so each keeps its English to translate from when another language is asked."""
    english = _english(command)
    if english:
        command.help = flowed(_(shown_help(english)))  # a translation flowed too
        command.short_help = command.help.partition("\n\n")[0]  # whole in a command list
    for param in command.params:
        text = _english(param)
        if text:
            # (ignore: options have `help`, arguments only ours: clickwords.py)
            param.help = flowed(_(text))  # type: ignore[attr-defined]
    helper = command.get_help_option(click.Context(command))
    if helper is not None:  # click's own --help, made in the language of its first use
        helper.help = _(clickwords.HELP_OPTION)
    for sub in getattr(command, "commands", {}).values():  # a group's commands
        translate_help(sub)


def _english(thing: click.Command | click.Parameter) -> str | None:
    """The help text `thing` was written with, kept aside the first time it is translated."""
    return vars(thing).setdefault("english_help", getattr(thing, "help", None))


def flowed(text: str) -> str:
    """A help text with each paragraph on one line, for the help formatter to wrap to the
    terminal's width: docstrings are wrapped at the source's, and click's formatter keeps
    those line breaks in a command list and after a first paragraph, mid-sentence. A
    paragraph with a line that is a list's item or an example (it begins with "- ", "* ",
    "1. " or a space) keeps its lines."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(
        p if any(map(_listed, p.splitlines())) else " ".join(p.split("\n")) for p in paragraphs
    )


def _listed(line: str) -> bool:
    """A line of a list or an example: an item ("- ", "* ", "1. "), an indented line, or
    one click's \\b marks as kept."""
    first = line.split(" ", 1)[0]
    return (
        line.startswith((" ", "\t", "\b"))
        or first in ("-", "*", "•")
        or (first[:-1].isdigit() and first[-1:] in ".)" and " " in line)
    )


def load_identity(name: str | None) -> Identity:
    """An identity by name (from the key directory) or by path; none named, the one
    `chosen_key` chooses. A key directory others may read is closed (mode 0700); an
    identity file others may read is used, with a warning on every command until its
    owner closes it."""
    from ..crypto.keystore import default_dir, identity_path, read_identity

    name = chosen_key(name)
    path = Path(name)
    if not path.is_file():
        directory = default_dir()
        if os.name == "posix" and directory.is_dir() and directory.stat().st_mode & 0o077:
            directory.chmod(0o700)
            note = _("seki: note: {directory} was open to others; now only you may read it")
            click.echo(note.format(directory=directory), err=True)
        path = identity_path(directory, name)
    identity = read_identity(path)
    if os.name == "posix" and path.stat().st_mode & 0o077:
        warning = _("seki: warning: {path} is readable by others; run: chmod 600 {path}")
        click.echo(warning.format(path=path), err=True)
    return identity


def referee_identity(key: str | None, games: list[Path]) -> Identity:
    """The referee's identity: `--key`, else the one named as the referee's in the games'
    definitions (game.txt), which must all name the same."""
    from ..protocol import game
    from ..protocol.store import GameDir

    if key is None:
        names = sorted({game.load(GameDir(g)).referee.name for g in games})
        if len(names) != 1:
            raise Refusal(
                N_("the games name different referee keys ({names}): give --key"),
                names=", ".join(names) or "-",
            )
        key = names[0]
    return load_identity(key)


def read_public(arg: str) -> PublicKey:
    """A public key from its seki1:... line or from a file holding that line."""
    from ..crypto.keys import parse_public_line
    from ..protocol.documents import decode_saved

    text = arg
    if not arg.strip().startswith("seki1:"):
        if not Path(arg).is_file():
            raise Refusal(
                N_("{arg}: not a seki1:... line and not a readable file"),
                code=Code.BAD_KEY,
                arg=arg,
            )
        text = decode_saved(read_input(Path(arg)), arg)
        lines = [x for x in text.splitlines() if x.strip().startswith("seki1:")]
        if len(lines) != 1:
            raise Refusal(
                N_("{arg}: expected exactly one seki1:... line"), code=Code.BAD_KEY, arg=arg
            )
        text = lines[0]
    return parse_public_line(text)


def read_input(path: Path) -> bytes:
    """A file a person sent, read whole but never beyond the size any document may have."""
    from ..protocol.documents import MAX_BYTES

    with open(path, "rb") as f:
        return f.read(MAX_BYTES + 1)


def read_text(path: Path) -> str:
    """A file a person sent or saved, as text: UTF-8, or UTF-16 as Windows PowerShell
    writes it; anything else is refused naming the file."""
    from ..protocol.documents import read_saved

    return read_saved(path)


def write_new(path: Path, text: str) -> None:
    """`store.write_new`, imported when a command writes (not when it starts)."""
    from ..protocol.store import write_new as new

    new(path, text)


def shell() -> Shell:
    """The terminal a turn talks through (games.Shell): what it makes on standard output,
    the rest to the person, questions answered no by default, the command's clock."""
    from ..games import Shell

    return Shell(click.echo, tell, utc_now, lambda question: click.confirm(question, default=False))


def utc_now() -> str:
    """The command's clock: the only place the time enters a game."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def report_delivery(delivery: Delivery, say: Callable[[str], None]) -> None:
    """How many messages were sent (said with `say`), and each that was not, on standard
    error (`seki mail send`, `seki referee run`)."""
    sent = len(delivery.sent)
    say(ngettext("sent {n} message", "sent {n} messages", sent).format(n=sent))
    for name, error in sorted(delivery.failed.items()):
        failed = _("NOT SENT (kept in the outbox, retried next time): {name}: {error}")
        tell(failed.format(name=name, error=error))
