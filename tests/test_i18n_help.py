"""The commands in the reader's language (issue 17): every command's description (its
docstring, extracted by i18n_extract.py) and every parameter's help has a Hungarian
translation, `--help` shows them, and the commands' own messages and refusals are in
Hungarian while their English text stays what it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from sekigahara_pbem import clickwords, i18n
from sekigahara_pbem.cli import app
from sekigahara_pbem.commands.common import shown_help, translate_help
from sekigahara_pbem.i18n_extract import command_docstrings, counted_messages


def _tree(command, path=("seki",)):
    """Every command under `command`, through click's own interface (a group may build its
    commands on demand)."""
    yield path, command
    if hasattr(command, "list_commands"):  # a group
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            yield from _tree(command.get_command(ctx, name), (*path, name))


def test_every_help_text_of_the_command_tree_is_translated(tmp_path, monkeypatch):
    """Walks the whole click tree: a command's description or a parameter's help that the
    catalog lacks (or 'translates' as the English) fails, naming the command. The tree is
    built in English (a group may put the help in the reader's language as it builds)."""
    monkeypatch.setenv("SEKI_HOME", str(tmp_path))
    for name in i18n.ENV_VARIABLES:
        monkeypatch.setenv(name, "C")
    root = app
    with i18n.using("en"):  # commands live once per process: another test may have
        translate_help(root)  # left them in Hungarian
    commands = list(_tree(root))
    assert len(commands) > 30
    untranslated = []
    with i18n.using("hu"):
        for path, command in commands:
            texts = [shown_help(command.help or "")]
            texts += [getattr(p, "help", None) or "" for p in command.params]
            for text in texts:
                if not text or i18n.gettext(text) == text:
                    untranslated.append((" ".join(path), text))
    assert not untranslated, untranslated


def test_only_the_commands_docstrings_are_extracted():
    """A command (decorated as click makes commands, with no help= of its own) gives its
    description as click shows it (cleaned, cut at a form feed); a private helper's
    docstring, or a group's given its help, is a developer note."""
    source = b'''
import click
app = click.Group()

@app.command("go")
@click.option("--x", default=1)
def go(x: int) -> None:
    """Go somewhere.

    Far away.
    \f
    Developer notes.
    """

@click.command("run")
@click.argument("path", help="A path.")
def run(path: str) -> None:
    """Run it."""

@click.group("seki", help="Shown instead of the docstring.")
def root() -> None:
    """A developer note."""

@click.command("helper")
def _helper(path: str) -> None:
    """Private: never shown."""

def plain(x: int) -> None:
    """Not a command."""
'''
    found = [doc for _line, doc in command_docstrings(source)]
    assert found == ["Go somewhere.\n\nFar away.", "Run it."]


def _run(args, tmp_path, lang="hu_HU.UTF-8"):
    env = {"SEKI_HOME": str(tmp_path), "LANG": lang, "LANGUAGE": "", "COLUMNS": "200"}
    return CliRunner().invoke(app, args, env=env)


def test_a_command_s_help_is_in_hungarian(tmp_path):
    """`seki game new --help` with a Hungarian environment: the description (a docstring)
    and the option help in Hungarian; `seki --help` lists the descriptions in it too."""
    result = _run(["game", "new", "--help"], tmp_path)
    assert result.exit_code == 0, result.output
    assert "Az aláírt játszmaleírás megírása" in result.output
    assert "Órák száma döntésenként" in result.output
    assert "Write the signed game definition" not in result.output
    listing = _run(["--help"], tmp_path)
    assert "Csatlakozás egy játszmához" in listing.output
    english = _run(["game", "new", "--help"], tmp_path, lang="C")
    assert "Write the signed game definition" in english.output
    assert "Órák" not in english.output


def test_the_commands_messages_and_refusals_are_in_hungarian(tmp_path):
    """A refusal raised by a command (two mail sources) and a command's own message (no
    identities yet) in Hungarian, from config.toml; the English text is unchanged."""
    (tmp_path / "config.toml").write_text('lang = "hu"\n', encoding="utf-8")
    spool = tmp_path / "spool"
    args = ["mail", "fetch", str(spool), "--maildir", "a", "--mbox", "b"]
    hu = _run(args, tmp_path, lang="C")
    assert hu.exit_code == 1
    assert "seki: csak egy forrást adj meg: --maildir, --mbox vagy --imap" in hu.output
    keys = _run(["keys", "show"], tmp_path, lang="C")
    assert keys.exit_code == 1
    assert f"seki: nincs személyazonosság itt: {tmp_path}" in keys.output
    (tmp_path / "config.toml").unlink()
    en = _run(args, tmp_path, lang="C")
    assert "seki: give one source: --maildir, --mbox or --imap" in en.output


def _seki(args, tmp_path, lang):
    """The real `seki`, as a shell runs it (cli.main: `seki --lang xx` is read there)."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SEKI_", "LC_"))},
           "SEKI_HOME": str(tmp_path), "LANG": lang, "LANGUAGE": "", "COLUMNS": "200"}  # fmt: skip
    return subprocess.run([str(Path(sys.executable).parent / "seki"), *args], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_clicks_own_words_are_in_the_readers_language(tmp_path):
    """Issue 37: with --lang hu (or a Hungarian environment) click's own words stayed
    English: "Usage:", "Options:", "Error: No such option", "Missing argument", "Try ...
    for help.", "Show this message and exit." They come from seki's catalog
    (clickwords.py), in the reader's language; in English they are click's."""
    unknown = _seki(["--lang", "hu", "nosuch"], tmp_path, "C")
    assert unknown.returncode == 2
    assert unknown.stderr.splitlines() == [
        "Használat: seki [OPTIONS] COMMAND [ARGS]...",
        "Súgó: 'seki --help'.",
        "",
        "Hiba: Nincs ilyen parancs: 'nosuch'.",
    ]
    option = _seki(["play", "--nosuch"], tmp_path, "hu_HU.UTF-8")
    assert option.returncode == 2
    assert "Hiba: Nincs ilyen kapcsoló: '--nosuch'. Erre gondoltál:" in option.stderr
    missing = _seki(["verify"], tmp_path, "hu_HU.UTF-8")
    assert "Hiba: Hiányzó argumentum 'DIRECTORY'." in missing.stderr
    shown = _seki(["game", "new", "--help"], tmp_path, "hu_HU.UTF-8").stdout
    assert "Használat: seki game new" in shown and "\nKapcsolók:\n" in shown
    assert "[kötelező]" in shown and "Kiírja ezt a súgót, és kilép." in shown
    for english in ("Usage:", "Options:", "Error:", "for help", "Show this message", "required"):
        assert english not in unknown.stderr + option.stderr + missing.stderr + shown
    plain = _seki(["play", "--nosuch"], tmp_path, "C")
    assert "Error: No such option '--nosuch'." in plain.stderr
    assert "Usage: seki play" in plain.stderr


def test_clicks_counted_messages_are_extracted_as_counted():
    """clickwords.py lists click's counted messages as data; the extractor gives them as
    ngettext's, so `pybabel update` keeps their plural forms in the catalog."""
    source = Path(clickwords.__file__).read_bytes()
    found = [pair for _line, pair in counted_messages(source)]
    assert found == list(clickwords.COUNTED_MESSAGES) and len(found) == 3
