"""`seki keys`: create and show the identities (signing + sealing keys) a person plays with."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import abort

if TYPE_CHECKING:
    from ..crypto.keys import Identity, PublicKey

app = typer.Typer(help="Create and show your signing and encryption keys.", no_args_is_help=True)

DirOption = Annotated[
    Path | None,
    typer.Option(
        "--dir",
        help="Key directory (default: $SEKI_HOME, else $XDG_CONFIG_HOME/seki or ~/.config/seki).",
    ),
]


def _print_public(public: PublicKey) -> None:
    typer.echo(f"{public.name}  fingerprint {public.fingerprint}")
    typer.echo(f"  {public.line()}")


@app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="Your name in games, e.g. 'ishida' or 'alice'.")],
    directory: DirOption = None,
    ssh_key: Annotated[
        Path | None,
        typer.Option(
            "--ssh-key", help="Use this OpenSSH Ed25519 private key for signing.", dir_okay=False
        ),
    ] = None,
) -> None:
    """Create a new identity, store it privately (mode 0600) and print its public line."""
    from ..crypto.keys import KeyFormatError, generate
    from ..crypto.keystore import KeyStoreError, default_dir, write_identity

    directory = directory or default_dir()
    try:
        identity = generate(name) if ssh_key is None else _from_ssh(name, ssh_key)
        path = write_identity(directory, identity)
    except (KeyFormatError, KeyStoreError) as exc:
        abort(f"{exc}")
    typer.echo(f"wrote {path} (mode 0600; keep it secret)")
    _print_public(identity.public)
    typer.echo("Send the seki1:... line to the referee; compare fingerprints by another channel.")


def _from_ssh(name: str, path: Path) -> Identity:
    """Adopt an SSH key; prompt for its passphrase only when one is needed and we can ask."""
    from ..crypto.keys import KeyFormatError, from_ssh_key

    try:
        data = path.read_bytes()
    except OSError as exc:
        abort(f"{path}: cannot read SSH key: {exc.strerror}")
    try:
        return from_ssh_key(name, data)
    except KeyFormatError as exc:
        if "password" not in str(exc).lower() or not sys.stdin.isatty():
            raise KeyFormatError(f"{path}: {exc}") from None
    passphrase = typer.prompt(f"Passphrase for {path}", hide_input=True)
    try:
        identity = from_ssh_key(name, data, passphrase.encode("utf-8"))
    except KeyFormatError as exc:
        raise KeyFormatError(f"{path}: {exc}") from None
    typer.echo(
        "warning: the identity file holds an unencrypted copy of this key (mode 0600)",
        err=True,
    )
    return identity


@app.command("show")
def show(
    name: Annotated[str | None, typer.Argument(help="Show only this identity.")] = None,
    directory: DirOption = None,
) -> None:
    """Print the public line and fingerprint of your identities."""
    from ..crypto.keys import KeyFormatError
    from ..crypto.keystore import (
        KeyStoreError,
        default_dir,
        identity_path,
        list_identities,
        read_identity,
    )

    directory = directory or default_dir()
    try:
        paths = [identity_path(directory, name)] if name else list_identities(directory)
        if not paths:
            abort(f"no identities in {directory} (create one with: seki keys new NAME)")
        identities = [read_identity(p) for p in paths]
    except (KeyFormatError, KeyStoreError) as exc:
        abort(f"{exc}")
    for path, identity in zip(paths, identities, strict=True):
        if path.stat().st_mode & 0o077:
            typer.echo(f"warning: {path} is readable by others; run: chmod 600 {path}", err=True)
        _print_public(identity.public)


@app.command("age")
def age(
    name: Annotated[str, typer.Argument(help="The identity whose key to print.")],
    directory: DirOption = None,
) -> None:
    """Print your encryption key as an age identity (AGE-SECRET-KEY-1…, secret: keep it
    as private as your key file), so `age -d -i FILE` opens your packets' sections."""
    from ..crypto import agefile
    from ..crypto.keys import KeyFormatError
    from ..crypto.keystore import KeyStoreError, default_dir, identity_path, read_identity

    try:
        identity = read_identity(identity_path(directory or default_dir(), name))
    except (KeyFormatError, KeyStoreError) as exc:
        abort(f"{exc}")
    typer.echo(f"# recipient: {agefile.age_recipient(identity.public)}", err=True)
    typer.echo(agefile.age_identity(identity))
