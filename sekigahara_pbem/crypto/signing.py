"""Signed documents that survive being mailed.

A signed document is a text body between marker lines, followed by a signature block::

    -----BEGIN SEKI DOCUMENT-----
    <body: canonical text, usually YAML>
    -----BEGIN SEKI SIGNATURE-----
    version: 2
    signer: <name>
    key: <key id: 64 hex digits>
    -----BEGIN SSH SIGNATURE-----
    <OpenSSH's SSHSIG of the canonical body, in the namespace of its kind (sshsig.py)>
    -----END SSH SIGNATURE-----
    -----END SEKI SIGNATURE-----

Version 2 is OpenSSH's own format, so `ssh-keygen -Y verify` checks any seki document
with the game's allowed_signers file (docs/crypto.md, "Check it without seki"); the
namespace is `<kind>@sekigahara-pbem`, the kind taken from the body's `format:` line
(`seki-turn/1` is `turn`), so a signature of one kind is no signature of another.
Version 1 (`sig:` lines: Ed25519 over a domain tag, the key id and the body) is still
verified, so archives made before it keep verifying; documents are no longer signed so.

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
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from cryptography.exceptions import InvalidSignature

from ..refusal import N_, Code, Refusal, quoted
from . import sshsig
from .canonical import canonical_lines, canonicalise
from .keys import NAME_PATTERN, Identity, PublicKey

BEGIN_DOCUMENT = "-----BEGIN SEKI DOCUMENT-----"
BEGIN_SIGNATURE = "-----BEGIN SEKI SIGNATURE-----"
END_SIGNATURE = "-----END SEKI SIGNATURE-----"
VERSION = "2"  # what documents are signed with; "1" is still verified
DOMAIN = b"seki-signed-document/1\n"  # version 1's domain tag
NAMESPACE = "{kind}@sekigahara-pbem"
_FORMAT = re.compile(r"format: seki-([a-z0-9-]+)/[0-9]+")
_MARKER = re.compile(r"-----(BEGIN|END) SEKI [A-Z ]+-----")
_MARKER_START = "-----"  # how _MARKER's lines and sshsig's BEGIN and END lines start
_QUOTE_PREFIX = re.compile(r"^((?:> ?)*)" + re.escape(BEGIN_DOCUMENT) + r"$")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_B64 = re.compile(r"[A-Za-z0-9+/]{86}==")
_ESCAPED = re.compile("[\udc80-\udcff]")  # a byte "surrogateescape" could not decode


class SignatureError(Refusal):
    """A signed document could not be accepted; subclasses say why."""

    code = Code.BAD_SIGNATURE


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
    """The parsed (not yet verified) signature block: version 1's raw Ed25519 signature,
    or version 2's armoured SSHSIG."""

    signer: str
    key_id: str
    signature: bytes | None = None
    armoured: str | None = None


@dataclass(frozen=True)
class Verified:
    """A document whose signature checked out: its canonical body and who signed it."""

    body: str
    signer: PublicKey


def signed_message(key_id: str, body: str) -> bytes:
    """Version 1: the bytes given to Ed25519: domain tag, key id, LF, canonical body."""
    return DOMAIN + key_id.encode("ascii") + b"\n" + canonicalise(body).encode("utf-8")


def namespace(body: str) -> str:
    """The SSHSIG namespace of a document: its kind, from its `format:` line."""
    return _namespace(canonicalise(body))


def _namespace(canon: str) -> str:
    """`namespace` of a text already canonical (verify has one in hand). The `format:`
    line is a document's first as seki writes it: a first line (up to LF) that matches
    holds no other line break, so it is `splitlines()`'s first too."""
    if match := _FORMAT.fullmatch(canon, 0, _line_end(canon)):
        return NAMESPACE.format(kind=match.group(1))
    for line in canon.splitlines():
        if match := _FORMAT.fullmatch(line):
            return NAMESPACE.format(kind=match.group(1))
    return NAMESPACE.format(kind="document")


def _line_end(text: str) -> int:
    end = text.find("\n")
    return len(text) if end < 0 else end


def sign(body: str, identity: Identity) -> str:
    """Sign `body` and return the whole document (canonical body plus signature block)."""
    canon = canonicalise(body)
    if not canon:
        raise Refusal(N_("cannot sign an empty document"))
    for line in canon.splitlines():
        if _MARKER.fullmatch(line) or line in (sshsig.BEGIN, sshsig.END):
            raise Refusal(
                N_("document body may not contain the marker line {line}"), line=quoted(line)
            )
    public = identity.public
    armoured = sshsig.sign(identity.signing, namespace(canon), canon.encode("utf-8"))
    return (
        f"{BEGIN_DOCUMENT}\n{canon}{BEGIN_SIGNATURE}\n"
        f"version: {VERSION}\nsigner: {public.name}\nkey: {public.key_id}\n"
        f"{armoured}{END_SIGNATURE}\n"
    )


def _extract(text: str) -> list[str]:
    """The lines from BEGIN DOCUMENT to END SIGNATURE, unquoted, canonicalised."""
    lines = canonical_lines(text)
    starts = _starts(lines)
    if not starts:
        raise NoSignatureBlock(
            N_("no signed document: no line {marker} found"), marker=quoted(BEGIN_DOCUMENT)
        )
    if len(starts) > 1:
        # a reply that quotes the previous packet: the one unquoted document is the new one
        starts = [s for s in starts if not s[1]]
        if len(starts) != 1:
            raise SignatureError(
                N_("more than one signed document in the text; send one, or quote the others")
            )
    start, prefix = starts[0]
    out = _unquoted(lines, start, prefix)
    if out[-1] == END_SIGNATURE:
        return out
    if BEGIN_SIGNATURE not in out:
        raise _no_block()
    raise MalformedSignature(
        N_("signature block is not closed by {marker}"), marker=quoted(END_SIGNATURE)
    )


def _starts(lines: list[str]) -> list[tuple[int, str]]:
    """(index, quote prefix) of each line that begins a document. Only a line holding
    BEGIN_DOCUMENT can: the others are passed over without the pattern (a tenth of the
    time `seki verify` spent on a packet was matching it on every line)."""
    return [
        (i, m.group(1))
        for i, line in enumerate(lines)
        if BEGIN_DOCUMENT in line and (m := _QUOTE_PREFIX.match(line))
    ]


def _unquoted(lines: list[str], start: int, prefix: str) -> list[str]:
    """The canonical lines from `start` to the first END SIGNATURE line (or to the end),
    `prefix` taken off each. A canonical line ends in no space or tab, nor does what is
    left of it once the prefix is off: nothing is left to strip."""
    if not prefix:  # the document as seki writes it: the lines as they are
        tail = lines[start:]
        return tail[: tail.index(END_SIGNATURE) + 1] if END_SIGNATURE in tail else tail
    bare = prefix.rstrip(" ")
    out: list[str] = []
    for number, line in enumerate(lines[start:], start=start + 1):
        if line.startswith(prefix):
            line = line[len(prefix) :]
        elif line == bare:
            line = ""
        else:
            raise MalformedSignature(
                N_("line {number}: quoted document has an unquoted line"), number=number
            )
        out.append(line)
        if line == END_SIGNATURE:
            break
    return out


def _no_block() -> NoSignatureBlock:
    return NoSignatureBlock(
        N_("document has no signature block (no line {marker})"), marker=quoted(BEGIN_SIGNATURE)
    )


def split(text: str) -> tuple[str, SignatureBlock]:
    """Find the document in `text` (e.g. a whole mail body) and parse, not verify, it."""
    lines = _extract(text)
    if BEGIN_SIGNATURE not in lines:
        raise _no_block()
    sig_at = lines.index(BEGIN_SIGNATURE)
    body_lines = lines[1:sig_at]
    body = _canonical_text(body_lines)
    # only a line starting with _MARKER_START can be a marker line: look for one then
    if body.startswith(_MARKER_START) or "\n" + _MARKER_START in body:
        for line in body_lines:
            if _MARKER.fullmatch(line) or line in (sshsig.BEGIN, sshsig.END):
                raise MalformedSignature(
                    N_("unexpected marker line {line} inside the document body"),
                    line=quoted(line),
                )
    return body, _parse_block(lines[sig_at + 1 : -1])


def _canonical_text(lines: list[str]) -> str:
    """`canonicalise("\\n".join(lines))` of lines that are each canonical already (from
    `canonical_lines`): the blank lines at both ends dropped, each line ended with LF.
    Verify makes one per document read; normalising the text again would cost a tenth
    of `seki verify`."""
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return "\n".join(lines[start:end]) + "\n" if end > start else ""


def _parse_block(lines: list[str]) -> SignatureBlock:
    first = lines[0] if lines else ""
    if first == f"version: {VERSION}":
        return _parse_sshsig_block(lines)
    if first.startswith("version: ") and first != "version: 1":
        raise _unsupported(first[9:])
    expected = ["version", "signer", "key", "sig", "sig"]
    if len(lines) != len(expected):
        raise MalformedSignature(
            N_(
                "signature block must have {count} lines (version, signer, key, sig, sig), "
                "found {found}"
            ),
            count=len(expected),
            found=len(lines),
        )
    values: list[str] = []
    for line, field in zip(lines, expected, strict=True):
        name, sep, value = line.partition(": ")
        if not sep or name != field:
            raise _unexpected(field, line)
        values.append(value)
    version, signer, key_id, sig1, sig2 = values
    if version != "1":
        raise _unsupported(version)
    _check_signer(signer, key_id)
    sig_text = sig1 + sig2
    if len(sig1) != 44 or not _B64.fullmatch(sig_text):
        raise MalformedSignature(
            N_("signature block: sig must be 88 base64 characters on two lines of 44")
        )
    signature = base64.b64decode(sig_text, validate=True)  # _B64 admits only base64
    if base64.b64encode(signature).decode("ascii") != sig_text:
        raise MalformedSignature(N_("signature block: sig is not in canonical base64"))
    return SignatureBlock(signer, key_id, signature=signature)


def _unsupported(version: str) -> MalformedSignature:
    return MalformedSignature(
        N_("signature block: unsupported version {version}"), version=quoted(version)
    )


def _unexpected(field: str, line: str) -> MalformedSignature:
    return MalformedSignature(
        N_("signature block: expected '{field}: ...', got {line}"), field=field, line=quoted(line)
    )


def _parse_sshsig_block(lines: list[str]) -> SignatureBlock:
    """Version 2: version, signer and key lines, then the armoured SSHSIG."""
    fields = []
    for line, field in zip(lines[1:3], ("signer", "key"), strict=False):
        name, sep, value = line.partition(": ")
        if not sep or name != field:
            raise _unexpected(field, line)
        fields.append(value)
    if len(fields) != 2:
        raise MalformedSignature(N_("signature block: the signer and key lines are missing"))
    signer, key_id = fields
    _check_signer(signer, key_id)
    armoured = "\n".join(lines[3:]) + "\n"
    try:
        sshsig.parse(armoured)
    except sshsig.SshsigError as exc:
        raise MalformedSignature(N_("signature block: {reason}"), reason=exc) from None
    return SignatureBlock(signer, key_id, armoured=armoured)


def _check_signer(signer: str, key_id: str) -> None:
    if not NAME_PATTERN.fullmatch(signer):
        raise MalformedSignature(N_("signature block: bad signer name {name}"), name=quoted(signer))
    if not _HEX64.fullmatch(key_id):
        raise MalformedSignature(N_("signature block: key must be 64 lower-case hex digits"))


def _utf8(data: bytes) -> str:
    """Bytes from a mail or a file as text, refused where they are not UTF-8. Each byte
    that does not decode becomes a lone surrogate ("surrogateescape"), which no UTF-8 text
    decodes to: the first one is where the text stops being UTF-8."""
    text = data.decode("utf-8", "surrogateescape")
    if bad := _ESCAPED.search(text):
        raise MalformedSignature(
            N_("document is not valid UTF-8 (byte {byte})"),
            byte=len(text[: bad.start()].encode("utf-8")),
        )
    return text


def verify(text: str | bytes, trusted: Iterable[PublicKey]) -> Verified:
    """Find, parse and verify a signed document against the trusted keys.

    Returns the canonical body and the signer; raises a SignatureError subclass otherwise.
    """
    if isinstance(text, bytes):
        text = _utf8(text)
    body, block = split(text)
    keys = {k.key_id: k for k in trusted}
    signer = keys.get(block.key_id)
    if signer is None:
        raise UnknownSigner(
            N_("signed by unknown key {key} (claims to be {name})"),
            key=block.key_id[:32],
            name=quoted(block.signer),
        )
    if signer.name != block.signer:
        raise UnknownSigner(
            N_("signature block names {name} but key {key} belongs to {owner}"),
            name=quoted(block.signer),
            key=block.key_id[:32],
            owner=quoted(signer.name),
        )
    if block.armoured is not None:
        try:
            sshsig.verify(signer.signing, _namespace(body), body.encode("utf-8"), block.armoured)
        except sshsig.SshsigError as exc:
            raise BadSignature(
                N_("bad signature by {name}: the document was changed after signing ({reason})"),
                name=quoted(signer.name),
                reason=exc,
            ) from None
        return Verified(body, signer)
    # a cast, not a check: a block without armour is version 1's, and _parse_block gives
    # every version 1 block its signature
    signature = cast(bytes, block.signature)
    try:
        signer.signing.verify(signature, signed_message(block.key_id, body))
    except InvalidSignature:
        raise BadSignature(
            N_("bad signature by {name}: the document was changed after signing"),
            name=quoted(signer.name),
        ) from None
    return Verified(body, signer)
