"""What every command shares: the one way to stop with a user-facing error."""

from __future__ import annotations

from typing import NoReturn

import typer


def abort(text: str, code: int = 1) -> NoReturn:
    """Print a one-line error to stderr and exit non-zero."""
    typer.echo(f"seki: {text}", err=True)
    raise typer.Exit(code)
