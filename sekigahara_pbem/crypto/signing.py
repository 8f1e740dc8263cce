"""Signed documents that survive being mailed.

A signed document is a text body between marker lines, followed by a signature block::

    -----BEGIN SEKI DOCUMENT-----
    <body: canonical text, usually YAML>
    -----BEGIN SEKI SIGNATURE-----
    version: 1
    signer: <name>
    key: <key id: 64 hex digits>
    sig: <base64, first 44 characters>
    sig: <base64, last 44 characters>
    -----END SEKI SIGNATURE-----

Why this shape:

- the BEGIN line lets a verifier find the document inside a mail body with other text (a
  greeting, a quoted reply) before and after it; a document quoted with "> " is unquoted;
- the body is canonicalised (canonical.py) before signing and verifying, so CRLF, trailing
  spaces and quoted-printable round trips do not break the signature;
- every line is at most 76 characters, so quoted-printable never needs soft line breaks and
  mail clients have no reason to rewrap;
- the Ed25519 signature covers a domain tag, the key id and the canonical body
  (see `signed_message`), so it cannot be replayed as a signature of another kind, and
  every byte of the block that matters is checked.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature

from .canonical import canonical_lines, canonicalise
from .keys import NAME_PATTERN, Identity, PublicKey

BEGIN_DOCUMENT = "-----BEGIN SEKI DOCUMENT-----"
BEGIN_SIGNATURE = "-----BEGIN SEKI SIGNATURE-----"
END_SIGNATURE = "-----END SEKI SIGNATURE-----"
VERSION = "1"
DOMAIN = b"seki-signed-document/1\n"
_MARKER = re.compile(r"-----(BEGIN|END) SEKI [A-Z ]+-----")
_QUOTE_PREFIX = re.compile(r"^((?:> ?)*)" + re.escape(BEGIN_DOCUMENT) + r"$")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_B64 = re.compile(r"[A-Za-z0-9+/]{86}==")


class SignatureError(ValueError):
    """A signed document could not be accepted; subclasses say why."""


class NoSignatureBlock(SignatureError):
    """No document, or a document with no signature block."""


class MalformedSignature(SignatureError):
    """The signature block is present but not in the documented format."""


class UnknownSigner(SignatureError):
    """The block names a key that is not among the trusted keys."""


class BadSignature(SignatureError):
    """The signature does not match the body (the document was altered or forged)."""


@dataclass(frozen=True)
class SignatureBlock:
    """The parsed (not yet verified) signature block."""

    signer: str
    key_id: str
    signature: bytes


@dataclass(frozen=True)
class Verified:
    """A document whose signature checked out: its canonical body and who signed it."""

    body: str
    signer: PublicKey


def signed_message(key_id: str, body: str) -> bytes:
    """The exact bytes given to Ed25519: domain tag, key id, LF, canonical body (UTF-8)."""
    return DOMAIN + key_id.encode("ascii") + b"\n" + canonicalise(body).encode("utf-8")


def sign(body: str, identity: Identity) -> str:
    """Sign `body` and return the whole document (canonical body plus signature block)."""
    canon = canonicalise(body)
    if not canon:
        raise ValueError("cannot sign an empty document")
    for line in canon.splitlines():
        if _MARKER.fullmatch(line):
            raise ValueError(f"document body may not contain the marker line {line!r}")
    public = identity.public
    sig = base64.b64encode(identity.signing.sign(signed_message(public.key_id, canon)))
    sig_text = sig.decode("ascii")
    return (
        f"{BEGIN_DOCUMENT}\n{canon}{BEGIN_SIGNATURE}\n"
        f"version: {VERSION}\nsigner: {public.name}\nkey: {public.key_id}\n"
        f"sig: {sig_text[:44]}\nsig: {sig_text[44:]}\n{END_SIGNATURE}\n"
    )


def _extract(text: str) -> list[str]:
    """The lines from BEGIN DOCUMENT to END SIGNATURE, unquoted, canonicalised."""
    lines = canonical_lines(text)
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _QUOTE_PREFIX.match(line))]
    if not starts:
        raise NoSignatureBlock(f"no signed document: no line {BEGIN_DOCUMENT!r} found")
    if len(starts) > 1:
        # a reply that quotes the previous packet: the one unquoted document is the new one
        starts = [s for s in starts if not s[1]]
        if len(starts) != 1:
            raise SignatureError(
                "more than one signed document in the text; send one, or quote the others"
            )
    start, prefix = starts[0]
    bare = prefix.rstrip(" ")
    out: list[str] = []
    for number, line in enumerate(lines[start:], start=start + 1):
        if prefix and line.startswith(prefix):
            line = line[len(prefix) :]
        elif prefix and line == bare:
            line = ""
        elif prefix:
            raise MalformedSignature(f"line {number}: quoted document has an unquoted line")
        out.append(line.rstrip(" \t"))
        if line == END_SIGNATURE:
            return out
    if BEGIN_SIGNATURE not in out:
        raise NoSignatureBlock(f"document has no signature block (no line {BEGIN_SIGNATURE!r})")
    raise MalformedSignature(f"signature block is not closed by {END_SIGNATURE!r}")


def split(text: str) -> tuple[str, SignatureBlock]:
    """Find the document in `text` (e.g. a whole mail body) and parse, not verify, it."""
    lines = _extract(text)
    try:
        sig_at = lines.index(BEGIN_SIGNATURE)
    except ValueError:
        raise NoSignatureBlock(
            f"document has no signature block (no line {BEGIN_SIGNATURE!r})"
        ) from None
    body_lines = lines[1:sig_at]
    for line in body_lines:
        if _MARKER.fullmatch(line):
            raise MalformedSignature(f"unexpected marker line {line!r} inside the document body")
    body = canonicalise("\n".join(body_lines))
    return body, _parse_block(lines[sig_at + 1 : -1])


def _parse_block(lines: list[str]) -> SignatureBlock:
    expected = ["version", "signer", "key", "sig", "sig"]
    if len(lines) != len(expected):
        raise MalformedSignature(
            f"signature block must have {len(expected)} lines "
            f"(version, signer, key, sig, sig), found {len(lines)}"
        )
    values: list[str] = []
    for line, field in zip(lines, expected, strict=True):
        name, sep, value = line.partition(": ")
        if not sep or name != field:
            raise MalformedSignature(f"signature block: expected '{field}: ...', got {line!r}")
        values.append(value)
    version, signer, key_id, sig1, sig2 = values
    if version != VERSION:
        raise MalformedSignature(f"signature block: unsupported version {version!r}")
    if not NAME_PATTERN.fullmatch(signer):
        raise MalformedSignature(f"signature block: bad signer name {signer!r}")
    if not _HEX64.fullmatch(key_id):
        raise MalformedSignature("signature block: key must be 64 lower-case hex digits")
    sig_text = sig1 + sig2
    if len(sig1) != 44 or not _B64.fullmatch(sig_text):
        raise MalformedSignature(
            "signature block: sig must be 88 base64 characters on two lines of 44"
        )
    try:
        signature = base64.b64decode(sig_text, validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - the regex rules this out
        raise MalformedSignature(f"signature block: sig is not base64: {exc}") from exc
    if base64.b64encode(signature).decode("ascii") != sig_text:
        raise MalformedSignature("signature block: sig is not in canonical base64")
    return SignatureBlock(signer, key_id, signature)


def verify(text: str | bytes, trusted: Iterable[PublicKey]) -> Verified:
    """Find, parse and verify a signed document against the trusted keys.

    Returns the canonical body and the signer; raises a SignatureError subclass otherwise.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedSignature(f"document is not valid UTF-8 (byte {exc.start})") from exc
    body, block = split(text)
    keys = {k.key_id: k for k in trusted}
    signer = keys.get(block.key_id)
    if signer is None:
        raise UnknownSigner(
            f"signed by unknown key {block.key_id[:32]} (claims to be {block.signer!r})"
        )
    if signer.name != block.signer:
        raise UnknownSigner(
            f"signature block names {block.signer!r} but key {block.key_id[:32]} "
            f"belongs to {signer.name!r}"
        )
    try:
        signer.signing.verify(block.signature, signed_message(block.key_id, body))
    except InvalidSignature:
        raise BadSignature(
            f"bad signature by {signer.name!r}: the document was changed after signing"
        ) from None
    return Verified(body, signer)
