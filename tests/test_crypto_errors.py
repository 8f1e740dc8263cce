"""Issue 29: hostile input to the crypto layer is refused by its own Refusal subclass, checked
before the library call, never as a ValueError, TypeError or UnicodeError out of a library
(which the command line would show as an internal error)."""

from __future__ import annotations

import base64
import struct

import pytest

from sekigahara_pbem.crypto import (
    agefile,
    commitments,
    keys,
    keystore,
    sealing,
    seeds,
    signing,
    ssh_signer,
    sshsig,
)
from sekigahara_pbem.crypto.keys import KeyFormatError
from sekigahara_pbem.crypto.keystore import KeyStoreError
from sekigahara_pbem.crypto.sealing import SealError
from sekigahara_pbem.crypto.signing import MalformedSignature
from sekigahara_pbem.crypto.ssh_signer import SshSignerError
from sekigahara_pbem.crypto.sshsig import SshsigError


@pytest.fixture(scope="module")
def alice() -> keys.Identity:
    return keys.generate("alice")


def refused(kind: type[Exception], parse, *args) -> Exception:
    """The refusal `parse(*args)` raises: of `kind`, and no builtin error."""
    with pytest.raises(kind) as caught:
        parse(*args)
    assert not isinstance(caught.value, ValueError | TypeError | UnicodeError)
    return caught.value


# public lines


@pytest.mark.parametrize(
    "key",
    ["!" * 43, "é" * 43, "A" * 42 + "=", "A" * 42 + "\x00", "ＡＡ" + "A" * 41],
)
def test_parse_public_line_with_bad_base64(alice, key):
    prefix, name, _sig, enc = alice.public.line().split(":")
    line = ":".join((prefix, name, key, enc))
    assert "base64url" in str(refused(KeyFormatError, keys.parse_public_line, line))


# identity files


def test_identity_from_text_with_garbage(alice):
    good = keys.identity_to_text(alice)
    hostile = [
        "\x00\x01\x02 binary garbage \ufffd",
        "format: seki-identity/1\nname: alice\npublic: 2001-02-30\nencryption-key: x\n",
        "[" * 5000,
        "a: " + "{" * 5000,
        "- " * 3000,
        good.replace("b3BlbnNzaC1rZXktdjE", "AAAAbnNzaC1rZXktdjE"),  # not openssh-key-v1
        good.replace("BEGIN OPENSSH PRIVATE KEY", "BEGIN OPENSSH PUBLIC KEY"),
        good.replace("encryption-key: |\n  -----BEGIN", "encryption-key: |\n  -----BEGIX"),
        good[: good.index("encryption-key:")] + "encryption-key: |\n  garbage\n",
        good[: len(good) // 2],
        good.replace("name: alice", "name: 'al ice'"),
    ]
    for text in hostile:
        refused(KeyFormatError, keys.identity_from_text, text)


def test_identity_from_text_takes_every_field_as_text():
    """A name YAML would read as a number, a date or a boolean is still a name."""
    for name in ("1e3", "2001-02-03", "yes", "null"):
        ident = keys.generate(name)
        assert keys.identity_from_text(keys.identity_to_text(ident)).name == name


def test_read_identity_of_bytes_that_are_not_utf8(tmp_path, alice):
    path = tmp_path / "alice.identity"
    path.write_bytes(keys.identity_to_text(alice).encode() + b"# \xff\xfe\x80 \xc3\n")
    assert keystore.read_identity(path).public == alice.public  # in a comment: harmless
    path.write_bytes(b"\xff\xfe\x80\x00garbage")
    assert str(path) in str(refused(KeyStoreError, keystore.read_identity, path))


# age armor


def test_open_armored_of_a_truncated_armor(alice):
    armored = agefile.seal(b"a secret", alice.public)
    lines = armored.splitlines()
    cut_inside = "\n".join([*lines[:2], lines[2][:-3], agefile.END]) + "\n"
    cut_at_line = "\n".join([*lines[:2], agefile.END]) + "\n"
    no_end = "\n".join(lines[:-1]) + "\n"
    bad_char = armored.replace(lines[1], lines[1][:-1] + "!")
    for text in (cut_inside, cut_at_line, no_end, bad_char, agefile.BEGIN + "\n\n" + agefile.END):
        refused(SealError, agefile.open_armored, text, alice, "hand")
    assert agefile.open_armored(armored, alice, "hand") == b"a secret"


def test_unlock_of_a_truncated_armor():
    locked = agefile.lock(b"identity", "pw")
    lines = locked.splitlines()
    cut = "\n".join([*lines[:2], lines[2][:-1], agefile.END]) + "\n"
    assert "not base64" in str(refused(SealError, agefile.unlock, cut, "pw", "f.identity"))
    short = "\n".join([lines[0], lines[1], agefile.END]) + "\n"
    refused(SealError, agefile.unlock, short, "pw", "f.identity")


# sealed sections


@pytest.mark.parametrize(
    "text", ["seki-sealed1:abc", "seki-sealed1:ab!=", "seki-sealed1:é===", "seki-sealed1:A==="]
)
def test_sealing_from_text_with_bad_base64(text):
    assert "not valid base64" in str(refused(SealError, sealing.from_text, text))


# signature blocks


@pytest.fixture(scope="module")
def document(alice) -> str:
    return signing.sign("format: seki-turn/1\ngame: g\n", alice)


def _v1_block(sig: str, key: str = "0" * 64) -> str:
    return (
        f"{signing.BEGIN_DOCUMENT}\ngame: g\n{signing.BEGIN_SIGNATURE}\n"
        f"version: 1\nsigner: alice\nkey: {key}\nsig: {sig[:44]}\nsig: {sig[44:]}\n"
        f"{signing.END_SIGNATURE}\n"
    )


@pytest.mark.parametrize(
    "sig", ["!" * 86 + "==", "é" * 86 + "==", "A" * 87 + "=", "A" * 85 + "B=="]
)
def test_split_of_a_signature_block_with_bad_base64(sig):
    refused(MalformedSignature, signing.split, _v1_block(sig))


@pytest.mark.parametrize("key", ["A" * 64, "g" * 64, "0" * 63, "é" * 64, "0" * 65])
def test_split_of_a_signature_block_with_bad_hex(key):
    refused(MalformedSignature, signing.split, _v1_block("A" * 86 + "==", key))


def test_split_of_a_signature_block_with_bad_sshsig_base64(document):
    lines = document.splitlines()
    at = lines.index(sshsig.BEGIN) + 1
    for bad in ("!" + lines[at][1:], lines[at][:-1], "é" + lines[at][1:]):
        text = "\n".join([*lines[:at], bad, *lines[at + 1 :]]) + "\n"
        refused(MalformedSignature, signing.split, text)


def test_verify_of_bytes_that_are_not_utf8(alice, document):
    raw = document.encode()
    at = raw.index(b"game: g") + 6
    for bad in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf0\x9f"):
        error = refused(MalformedSignature, signing.verify, raw[:at] + bad + raw[at:], [])
        assert f"(byte {at})" in str(error)


def test_sshsig_parse_of_a_namespace_that_is_not_utf8(alice):
    def string(data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + data

    blob = (
        sshsig.MAGIC
        + struct.pack(">I", 1)
        + string(sshsig.public_blob(alice.public.signing))
        + string(b"turn\xff@sekigahara-pbem")
        + string(b"")
        + string(b"sha512")
        + string(string(sshsig.KEY_TYPE) + string(bytes(64)))
    )
    error = refused(SshsigError, sshsig.parse, sshsig.armour(blob))
    assert "namespace is not UTF-8" in str(error)


@pytest.mark.parametrize("body", ["!!!!", "QUJD\u00e9", "QUJDRA", "QUJD===="])
def test_sshsig_parse_of_bad_base64(body):
    armoured = f"{sshsig.BEGIN}\n{body}\n{sshsig.END}\n"
    refused(SshsigError, sshsig.parse, armoured)


# OpenSSH public key lines


@pytest.mark.parametrize(
    "line",
    [
        "ssh-foo AAAAB3NzaC1rZXk=",  # an algorithm cryptography does not know
        "ssh-ed25519 !!!!",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIÉ",
        "ssh-ed25519 " + base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00").decode(),
        "",
        "\x00",
    ],
)
def test_ssh_signer_parse_public_of_a_bad_line(line):
    error = refused(SshSignerError, ssh_signer.parse_public, line, "id.pub")
    assert str(error).startswith("id.pub: ")


# commitments and seeds: predicates, a hostile value is no match, not an error


@pytest.mark.parametrize(
    ("commitment", "salt"),
    [
        ("é" * 64, bytes(32)),
        ("zz", bytes(32)),
        (None, bytes(32)),
        ("0" * 64, "not hex at all"),
        ("0" * 64, "é" * 64),
        ("0" * 64, "0" * 63),
        ("0" * 64, "AB" * 32),
        ("0" * 64, b"short"),
        ("0" * 64, 42),
    ],
)
def test_commitments_verify_of_a_bad_commitment_or_salt(commitment, salt):
    assert commitments.verify(commitment, "ukita-2a", salt) is False


def test_commitment_of_a_value_with_a_lone_surrogate():
    salt = bytes(32)
    value = commitments.canonical_json(["block", "\ud800", "x"])
    assert not commitments.verify(commitments.commit("block", salt), value, salt)


@pytest.mark.parametrize(
    ("commitment", "seed"),
    [("é" * 64, bytes(32)), ("0" * 64, bytes(31)), ("0" * 64, "0" * 32), (7, bytes(32))],
)
def test_seeds_verify_seed_of_a_bad_commitment_or_seed(commitment, seed):
    assert seeds.verify_seed(commitment, seed, "ishida") is False
