"""The Jinja environment the report templates share (sekigahara_pbem/templates/)."""

from __future__ import annotations

import contextlib
import pickle
import textwrap
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.bccache import Bucket, BytecodeCache, FileSystemBytecodeCache

from .. import i18n

WIDTH = 80  # every line of a text report fits an 80-column terminal


def wrap(text: str, indent: int = 2, hang: int = 2, width: int = WIDTH) -> str:
    """A paragraph filled to the width; continuation lines indented `hang` more. Ids are
    never split at their hyphens."""
    return textwrap.fill(
        str(text),
        width=width,
        initial_indent=" " * indent,
        subsequent_indent=" " * (indent + hang),
        break_on_hyphens=False,
        break_long_words=True,
    )


def numbered(text: str, number: int, indent: int = 2) -> str:
    """'  12. text…' with continuation lines under the text."""
    head = f"{' ' * indent}{number:>2}. "
    return textwrap.fill(
        str(text),
        width=WIDTH,
        initial_indent=head,
        subsequent_indent=" " * len(head),
        break_on_hyphens=False,
        break_long_words=True,
    )


def underline(heading: str, char: str = "-") -> str:
    """A Markdown heading: the text, then a rule as long as it (in any language)."""
    return f"{heading}\n{char * len(heading)}"


class _Compiled(FileSystemBytecodeCache):
    """Templates compiled once and kept between runs, by jinja's own cache in the user's
    temporary directory (a report's template takes longer to compile than to render).
    A cache that cannot be read or written is no cache: the template is compiled."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError, TypeError, pickle.UnpicklingError):
            bucket.reset()  # boundary: jinja's cache (marshal) reports a bad file by raising

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def compiled_cache(directory: str | None = None) -> BytecodeCache | None:
    """The cache of compiled templates (None where no safe directory is found); its
    files are named for this environment's settings (`_SETTINGS`)."""
    try:
        return _Compiled(directory, pattern=f"__seki-{_SETTINGS}-%s.cache")
    except (OSError, RuntimeError):  # boundary: jinja finds no safe directory
        return None


_SETTINGS = "1"  # change with the environment's options: compiled code depends on them


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("sekigahara_pbem", "templates"),
        bytecode_cache=compiled_cache(),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=lambda name: bool(name and name.endswith((".html.j2", ".svg.j2"))),
        extensions=["jinja2.ext.i18n"],
    )
    # gettext in templates reads the reader's language at render time (i18n.using)
    # the i18n extension named above adds this method to the environment (Environment.extend)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True
    )
    env.filters["wrap"] = wrap
    env.filters["numbered"] = numbered
    env.filters["underline"] = underline
    return env
