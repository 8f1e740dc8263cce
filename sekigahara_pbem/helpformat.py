"""Click's help layout with one change: a line never breaks inside a hyphenated word.

Help names what a reader types as it stands (`seki docs two-party`, `--two-party`,
`first-edition`); click's wrapper, Python's textwrap, breaks after a hyphen, so the name
came out cut in two. Each such hyphen is held as a non-breaking one (U+2011, as wide)
while the text is wrapped, and written back as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import click

HELD = "\u2011"  # NON-BREAKING HYPHEN: textwrap does not break at it
_INNER = re.compile(r"(?<=\w)-(?=\w)")


def _held(text: str) -> str:
    return _INNER.sub(HELD, text)


class HelpFormatter(click.HelpFormatter):
    def write_text(self, text: str) -> None:
        super().write_text(_held(text))

    def write_dl(self, rows: Iterable[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        super().write_dl([(term, _held(words)) for term, words in rows], *args, **kwargs)

    def getvalue(self) -> str:
        return super().getvalue().replace(HELD, "-")


class Context(click.Context):
    formatter_class = HelpFormatter


def use_in(commands: Iterable[click.Command]) -> None:
    """Every command given, and the commands of each group, lay out their help so."""
    for command in commands:
        command.context_class = Context
        if isinstance(command, click.Group):
            use_in(command.commands.values())
