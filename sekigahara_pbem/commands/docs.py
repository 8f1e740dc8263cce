"""`seki docs`: seki's documents, read from the installed package. The help and the
messages point to a document by its topic (`seki docs play`): a wheel holds no docs/
folder, so a path into the repository sends a player who installed seki nowhere. The
documents are the repository's docs/*.md, shipped as the package data of
`sekigahara_pbem.docs` (sekigahara_pbem/docs is a link to ../docs: docs/cli.md). A wheel or
sdist holds the files themselves; only a checkout made without symbolic links (Git for
Windows' default) lacks them, and `seki docs` says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..i18n import N_
from ..refusal import Refusal, UserError, quoted

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

PACKAGE = "sekigahara_pbem.docs"


def topics() -> dict[str, Traversable]:
    """Every document shipped, by topic (its file name without .md), in order."""
    from importlib import resources, util

    if util.find_spec(PACKAGE) is None:
        raise UserError(
            N_(
                "this installation of seki holds no documents ({package}): was it installed"
                " from a checkout without symbolic links? (git config core.symlinks true,"
                " check out again, install again)"
            ),
            package=PACKAGE,
        )
    found = [p for p in resources.files(PACKAGE).iterdir() if p.name.endswith(".md")]
    return {p.name.removesuffix(".md"): p for p in sorted(found, key=lambda p: p.name)}


def _complete(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    """The topics a shell completes `seki docs pl<TAB>` with."""
    return [topic for topic in topics() if topic.startswith(incomplete)]


@click.command("docs")
@click.argument(
    "name",
    required=False,
    shell_complete=_complete,
    help=N_("The topic to print, e.g. play; without it, the list of topics."),
)
def docs(name: str | None) -> None:
    """Print one of seki's documents (markdown text), or list them with their titles."""
    pages = topics()
    if name is None:
        width = max(map(len, pages))
        for topic, page in pages.items():
            click.echo(f"{topic:<{width}}  {_title(page)}")
        return
    topic = name.removesuffix(".md")
    if topic not in pages:
        raise Refusal(
            N_("no document {name}: the topics are {topics}"),
            name=quoted(name),
            topics=", ".join(pages),
        )
    click.echo(pages[topic].read_text(encoding="utf-8"), nl=False)


def _title(page: Traversable) -> str:
    """A document's title: its first heading, without the '#'."""
    with page.open(encoding="utf-8") as f:
        first = next((line for line in f if line.startswith("# ")), "# ")
    return first[2:].strip()
