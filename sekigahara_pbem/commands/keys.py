"""`seki keys`: create and show the identities (signing + sealing keys) a person plays with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..i18n import N_
from ..i18n import gettext as _
from ..refusal import Refusal
from .common import Group, tell

if TYPE_CHECKING:
    from ..crypto.keys import Identity, PublicKey

app = Group(help=N_("Create and show your signing and encryption keys."), no_args_is_help=True)

dir_option = click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path),
    help=N_(
        "Key directory (default: $SEKI_HOME, else $XDG_CONFIG_HOME/seki, else seki's "
        "folder among your settings: ~/.config/seki on Linux)."
    ),
)


def _print_public(public: PublicKey) -> None:
    click.echo(_fingerprint(public))
    click.echo(f"  {public.line()}")


def _fingerprint(public: PublicKey) -> str:
    return _("{name}  fingerprint {fingerprint}").format(
        name=public.name, fingerprint=public.fingerprint
    )


@app.command("new")
@click.argument("name", help=N_("Your name in games, e.g. 'ishida' or 'alice'."))
@dir_option
@click.option(
    "--ssh-key",
    type=click.Path(path_type=Path, dir_okay=False),
    help=N_(
        "Sign with this OpenSSH Ed25519 key, through ssh-keygen: a private key file "
        "(it asks its passphrase itself), or a .pub file whose key ssh-agent holds. "
        "seki never copies it."
    ),
)
@click.option(
    "--passphrase",
    "protect",
    is_flag=True,
    help=N_(
        "Lock the identity file with a passphrase (asked at every use, or taken "
        "from $SEKI_PASSPHRASE)."
    ),
)
def new(name: str, directory: Path | None, ssh_key: Path | None, protect: bool) -> None:
    """Create a new identity, store it privately (mode 0600) and print its public line
    (alone on standard output: `seki keys new alice > alice.pub`)."""
    import os

    from ..crypto.keys import generate
    from ..crypto.keystore import PASSPHRASE_ENV, default_dir, write_identity

    directory = directory or default_dir()
    identity = generate(name) if ssh_key is None else _from_ssh(name, ssh_key)
    secret = None
    if protect:
        secret = os.environ.get(PASSPHRASE_ENV) or click.prompt(
            _("Passphrase for the new identity"), hide_input=True, confirmation_prompt=True
        )
    path = write_identity(directory, identity, secret)
    tell(_("wrote {path} (mode 0600; keep it secret)").format(path=path))
    tell(_fingerprint(identity.public))
    click.echo(identity.public.line())
    tell(_("Send the seki1:... line to the referee; compare fingerprints by another channel."))


def _from_ssh(name: str, path: Path) -> Identity:
    """An identity that signs with the SSH key at `path` where it is, through ssh-keygen
    (crypto/ssh_signer.py): a `.pub` file means ssh-agent holds the key."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    from ..crypto.keys import Identity, KeyFormatError, check_name, load_ssh_signing_key
    from ..crypto.ssh_signer import SshKeygenSigner, parse_public

    text = path.read_text(encoding="utf-8", errors="replace")
    if not text.startswith("-----BEGIN OPENSSH PRIVATE KEY-----"):  # a public key: ssh-agent
        signer = SshKeygenSigner(parse_public(text, str(path)))
    else:
        public = path.with_name(path.name + ".pub")
        if public.is_file():
            key = parse_public(public.read_text(encoding="utf-8"), str(public))
        else:
            try:
                key = load_ssh_signing_key(text.encode("utf-8")).public_key()
            except KeyFormatError as exc:
                raise KeyFormatError(
                    N_("{path}: {reason} (or put its {name} beside it)"),
                    path=path,
                    reason=exc,
                    name=public.name,
                ) from None
        signer = SshKeygenSigner(key, path.resolve())
    return Identity(check_name(name), signer, X25519PrivateKey.generate())


@app.command("show")
@click.argument("name", required=False, help=N_("Show only this identity."))
@dir_option
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON list, for programs."))
def show(name: str | None, directory: Path | None, as_json: bool) -> None:
    """Print the public line and fingerprint of your identities."""
    from ..crypto.keystore import (
        default_dir,
        identity_path,
        list_identities,
        read_identity,
    )

    directory = directory or default_dir()
    paths = [identity_path(directory, name)] if name else list_identities(directory)
    if not paths:
        raise Refusal(
            N_("no identities in {path} (create one with: seki keys new NAME)"), path=directory
        )
    identities = [read_identity(p) for p in paths]
    for path, identity in zip(paths, identities, strict=True):
        if path.stat().st_mode & 0o077:
            warning = _("warning: {path} is readable by others; run: chmod 600 {path}")
            tell(warning.format(path=path))
        if not as_json:
            _print_public(identity.public)
    if as_json:
        shown = [
            {"name": i.public.name, "fingerprint": i.public.fingerprint, "public": i.public.line()}
            for i in identities
        ]
        click.echo(json.dumps(shown, indent=1))


@app.command("age")
@click.argument("name", help=N_("The identity whose key to print."))
@dir_option
def age(name: str, directory: Path | None) -> None:
    """Print your encryption key as an age identity (AGE-SECRET-KEY-1…, secret: keep it
    as private as your key file), so `age -d -i FILE` opens your packets' sections."""
    from ..crypto import agefile
    from ..crypto.keystore import default_dir, identity_path, read_identity

    identity = read_identity(identity_path(directory or default_dir(), name))
    recipient = _("# recipient: {recipient}")
    tell(recipient.format(recipient=agefile.age_recipient(identity.public)))
    click.echo(agefile.age_identity(identity))
