"""A Babel extractor (babel.cfg, docs/translating.md): Python's own messages, and the
descriptions of the commands, which typer takes from their docstrings.

`seki --help` and a command's `--help` show a command's docstring (typer:
`inspect.getdoc`), put in the reader's language by commands/common.translate_help; the
message id is that text as click shows it (cleaned, cut at a form feed). A function's
docstring is a command's description when the function is public (no leading `_`) and
typer reads its signature: it is decorated `@<app>.command(...)` or `@<app>.callback(...)`,
or a parameter of it is `Annotated[..., typer.Option(...)]` / `typer.Argument(...)` (the
commands cli.py registers with `app.command("name")(module.function)`). Every other
docstring is a note for developers and is not extracted. tests/test_i18n_help.py walks the
whole command tree: a description this rule missed has no translation and fails there.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

from .commands.common import shown_help

TYPER_PARAMETERS = frozenset({"Option", "Argument"})
TYPER_DECORATORS = frozenset({"command", "callback"})


def _calls(node: ast.AST, names: frozenset[str]) -> bool:
    """`node` holds a call of an attribute named in `names` (typer.Option(...),
    app.command(...))."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in names
        for n in ast.walk(node)
    )


def is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether typer shows this function's docstring as a command's description."""
    if node.name.startswith("_"):
        return False
    if any(_calls(d, TYPER_DECORATORS) for d in node.decorator_list):
        return True
    args = node.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    return any(p.annotation is not None and _calls(p.annotation, TYPER_PARAMETERS) for p in params)


def command_docstrings(source: bytes) -> Iterator[tuple[int, str]]:
    """(line, description) of every command function defined at a module's top level."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and is_command(node):
            doc = ast.get_docstring(node, clean=False)
            if doc and shown_help(doc):
                yield node.body[0].lineno, shown_help(doc)


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str | tuple[str, ...], list[str]]]:
    """Babel's Python extraction, then the commands' descriptions (funcname None: the
    message is taken whole)."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for lineno, doc in command_docstrings(source):
        yield lineno, None, doc, []
