"""A Babel extractor (babel.cfg, docs/translating.md): Python's own messages, the
descriptions of the commands, which click takes from their docstrings, and counted
messages listed as data (`COUNTED_MESSAGES`: click's own, clickwords.py).

`seki --help` and a command's `--help` show a command's docstring (click:
`inspect.getdoc`), put in the reader's language by commands/common.translate_help; the
message id is that text as click shows it (cleaned, cut at a form feed). A function's
docstring is a command's description when the function is public (no leading `_`) and
click makes a command of it: it is decorated `@click.command(...)`, `@click.group(...)` or
`@<group>.command(...)`, with no `help=` of its own (that would be shown instead). Every
other docstring is a note for developers and is not extracted. tests/test_i18n_help.py walks the
whole command tree: a description this rule missed has no translation and fails there.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import IO, Any, cast

from babel.messages.extract import extract_python

from .commands.common import shown_help

COMMAND_DECORATORS = frozenset({"command", "group"})
COUNTED = "COUNTED_MESSAGES"  # a module's counted messages, listed as data

# (lineno, funcname, message, comments): what an extractor yields, as babel calls it
Extracted = tuple[int, str | None, str | tuple[str, ...], list[str]]
Extractor = Callable[
    [IO[bytes], Mapping[str, Any], Collection[str], Mapping[str, Any]], Iterator[Extracted]
]
# Babel's Python extractor, typed as babel calls it. A cast: babel 2.19 annotates it as
# yielding what `extract` yields (lineno, message, comments, context) and as taking a
# TypedDict of options, but it yields (lineno, funcname, message, comments), as its
# docstring says, and babel hands every extractor a plain mapping of options.
_extract_python = cast(Extractor, extract_python)


def _makes_command(decorator: ast.expr) -> bool:
    """`decorator` is click's `command` or `group` (called or not: `@click.command`,
    `@app.command("new")`) and gives no `help=`, so the docstring is the description."""
    call = decorator if isinstance(decorator, ast.Call) else None
    func = call.func if call else decorator
    if not isinstance(func, ast.Attribute) or func.attr not in COMMAND_DECORATORS:
        return False
    return call is None or all(k.arg != "help" for k in call.keywords)


def is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether click shows this function's docstring as a command's description."""
    return not node.name.startswith("_") and any(map(_makes_command, node.decorator_list))


def command_docstrings(source: bytes) -> Iterator[tuple[int, str]]:
    """(line, description) of every command function defined at a module's top level."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and is_command(node):
            doc = ast.get_docstring(node, clean=False)
            if doc and shown_help(doc):
                yield node.body[0].lineno, shown_help(doc)


def counted_messages(source: bytes) -> Iterator[tuple[int, tuple[str, str]]]:
    """(line, (singular, plural)) of each pair of string constants in a module-level
    tuple named COUNTED_MESSAGES: counted messages another library asks for through
    ngettext, listed as data (clickwords.py)."""
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign):
            continue
        if not any(isinstance(t, ast.Name) and t.id == COUNTED for t in node.targets):
            continue
        for pair in getattr(node.value, "elts", []):
            words = [e.value for e in getattr(pair, "elts", []) if isinstance(e, ast.Constant)]
            texts = [w for w in words if isinstance(w, str)]
            if len(words) == 2 and len(texts) == 2:
                yield pair.lineno, (texts[0], texts[1])


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Extracted]:
    """Babel's Python extraction, then the commands' descriptions (funcname None: the
    message is taken whole)."""
    source = fileobj.read()
    yield from _extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for lineno, doc in command_docstrings(source):
        yield lineno, None, doc, []
    for lineno, pair in counted_messages(source):
        yield lineno, "ngettext", pair, []
