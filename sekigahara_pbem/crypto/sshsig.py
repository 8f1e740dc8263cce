"""OpenSSH's signature format, SSHSIG (PROTOCOL.sshsig in openssh-portable), for Ed25519
keys, built on `cryptography`'s Ed25519: a seki signature is one that `ssh-keygen -Y
verify` accepts, and one that `ssh-keygen -Y sign` made (e.g. with a key that lives in
ssh-agent) is one seki accepts.

The signed data is `"SSHSIG" || string(namespace) || string("") || string(hash name) ||
string(H(message))`; the armoured signature holds the signer's public key, the namespace,
the hash name and the Ed25519 signature, base64 in lines of 70 between the
`-----BEGIN SSH SIGNATURE-----` and `-----END SSH SIGNATURE-----` lines, as ssh-keygen
writes it. `string` is a 4-byte big-endian length and the bytes (RFC 4251).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import struct
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..refusal import N_, Code, Refusal, quoted
from .b64 import is_base64

if TYPE_CHECKING:
    from .ssh_signer import SshKeygenSigner

MAGIC = b"SSHSIG"
SIG_VERSION = 1
KEY_TYPE = b"ssh-ed25519"
HASHES = {b"sha512": hashlib.sha512, b"sha256": hashlib.sha256}
SIGN_HASH = b"sha512"  # what ssh-keygen uses by default
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
LINE = 70
MAX_ARMOUR = 4096  # an Ed25519 SSHSIG is about 300 characters


class SshsigError(Refusal):
    """An SSHSIG signature that cannot be read or does not verify; the message says why.
    A person reads it inside the refusal that wraps it (signing.py, ssh_signer.py)."""

    code = Code.BAD_SIGNATURE


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def public_blob(key: Ed25519PublicKey) -> bytes:
    """The key in SSH wire form: string("ssh-ed25519") || string(32 bytes)."""
    return _string(KEY_TYPE) + _string(key.public_bytes_raw())


def signed_data(namespace: str, message: bytes, hash_name: bytes = SIGN_HASH) -> bytes:
    """What the Ed25519 key signs (PROTOCOL.sshsig, 'Signed Data')."""
    digest = HASHES[hash_name](message).digest()
    ns = namespace.encode("utf-8")
    return MAGIC + _string(ns) + _string(b"") + _string(hash_name) + _string(digest)


def armour(blob: bytes) -> str:
    text = base64.b64encode(blob).decode("ascii")
    lines = [text[i : i + LINE] for i in range(0, len(text), LINE)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def sign(key: Ed25519PrivateKey | SshKeygenSigner, namespace: str, message: bytes) -> str:
    """The armoured SSHSIG signature of `message` in `namespace`. A key seki does not
    hold (crypto/ssh_signer.py) makes it itself."""
    if hasattr(key, "sshsig"):
        return key.sshsig(namespace, message)
    signature = key.sign(signed_data(namespace, message))
    blob = (
        MAGIC
        + struct.pack(">I", SIG_VERSION)
        + _string(public_blob(key.public_key()))
        + _string(namespace.encode("utf-8"))
        + _string(b"")
        + _string(SIGN_HASH)
        + _string(_string(KEY_TYPE) + _string(signature))
    )
    return armour(blob)


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise SshsigError(N_("SSHSIG: the signature is cut short"))
        out = self.data[self.at : self.at + n]
        self.at += n
        return out

    def string(self) -> bytes:
        (n,) = struct.unpack(">I", self.take(4))
        return self.take(n)


@functools.lru_cache(maxsize=8)
def parse(armoured: str) -> tuple[bytes, str, bytes, bytes]:
    """(the signer's 32-byte Ed25519 public key, namespace, hash name, signature) of an
    armoured SSHSIG; SshsigError if it is anything but a well-formed Ed25519 one. The last
    few are kept: a document's signature is parsed when its block is read (signing.split)
    and again when it is checked, and the answer is the same (a refusal is not kept)."""
    lines = armoured.removesuffix("\n").split("\n")  # LF only: a stray VT is no line break
    if len(armoured) > MAX_ARMOUR or len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise SshsigError(N_("SSHSIG: expected the lines {begin} ... {end}"), begin=BEGIN, end=END)
    text = "".join(lines[1:-1])
    if not is_base64(text):
        raise SshsigError(N_("SSHSIG: the signature is not base64"))
    blob = base64.b64decode(text, validate=True)
    if armour(blob) != "\n".join(lines) + "\n":
        raise SshsigError(
            N_("SSHSIG: not in canonical form (base64 in lines of {columns})"), columns=LINE
        )
    r = _Reader(blob)
    if r.take(6) != MAGIC or struct.unpack(">I", r.take(4))[0] != SIG_VERSION:
        raise SshsigError(N_("SSHSIG: not an SSHSIG signature of version 1"))
    key = _Reader(r.string())
    namespace, reserved, hash_name, sig = r.string(), r.string(), r.string(), _Reader(r.string())
    if r.at != len(blob):
        raise SshsigError(N_("SSHSIG: trailing bytes after the signature"))
    if key.string() != KEY_TYPE or sig.string() != KEY_TYPE:
        raise SshsigError(N_("SSHSIG: only ssh-ed25519 keys are accepted"))
    raw_key, raw_sig = key.string(), sig.string()
    if (
        len(raw_key) != 32
        or len(raw_sig) != 64
        or key.at != len(key.data)
        or sig.at != len(sig.data)
    ):
        raise SshsigError(N_("SSHSIG: malformed ssh-ed25519 key or signature"))
    if reserved or hash_name not in HASHES:
        raise SshsigError(
            N_("SSHSIG: unsupported hash {hash} or reserved field"), hash=quoted(hash_name[:16])
        )
    text = namespace.decode("utf-8", "replace")
    if text.encode("utf-8") != namespace:  # what does not decode was replaced
        raise SshsigError(N_("SSHSIG: the namespace is not UTF-8"))
    return raw_key, text, hash_name, raw_sig


def verify(key: Ed25519PublicKey, namespace: str, message: bytes, armoured: str) -> None:
    """Check that `armoured` is `key`'s signature of `message` in `namespace`."""
    raw_key, ns, hash_name, signature = parse(armoured)
    if raw_key != key.public_bytes_raw():
        raise SshsigError(N_("SSHSIG: signed by another key than the one named"))
    if ns != namespace:
        raise SshsigError(
            N_("SSHSIG: namespace {found}, expected {expected}"),
            found=quoted(ns),
            expected=quoted(namespace),
        )
    data = signed_data(namespace, message, hash_name)
    try:
        key.verify(signature, data)
    except InvalidSignature:
        raise SshsigError(N_("SSHSIG: the signature does not match the document")) from None


def allowed_signers_line(principal: str, key: Ed25519PublicKey, namespaces: list[str]) -> str:
    """One line of an OpenSSH allowed_signers file (ssh-keygen(1), ALLOWED SIGNERS)."""
    blob = base64.b64encode(public_blob(key)).decode("ascii")
    return f'{principal} namespaces="{",".join(namespaces)}" ssh-ed25519 {blob}'
