"""Identities: public lines and identity files round-trip; bad input gets a precise error;
an OpenSSH Ed25519 key is accepted as the signing key."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from sekigahara_pbem.crypto import keys
from sekigahara_pbem.crypto.keys import KeyFormatError


@pytest.fixture(scope="module")
def alice() -> keys.Identity:
    return keys.generate("alice")


def test_public_line_round_trips(alice):
    line = alice.public.line()
    assert line.startswith("seki1:alice:")
    assert len(line) < 110 and "\n" not in line
    assert keys.parse_public_line("  " + line + "\n") == alice.public


def test_fingerprint_is_grouped_prefix_of_key_id(alice):
    fp = alice.public.fingerprint
    assert len(fp.split()) == 8 and all(len(g) == 4 for g in fp.split())
    assert alice.public.key_id.startswith(fp.replace(" ", ""))
    assert keys.generate("alice").public.fingerprint != fp


def test_identity_file_round_trips(alice):
    again = keys.identity_from_text(keys.identity_to_text(alice))
    assert again.public == alice.public
    assert again.name == "alice"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.replace("seki1:", "seki2:"), "must start with 'seki1'"),
        (lambda s: s + ":extra", "4 ':'-separated fields"),
        (lambda s: s.replace(":alice:", ":al ice:"), "bad name"),
        (lambda s: s[:-1], "43 base64url characters"),
        (lambda s: s[:-1] + "=", "43 base64url characters"),
    ],
)
def test_bad_public_line_is_refused_with_reason(alice, mutate, message):
    with pytest.raises(KeyFormatError, match=message):
        keys.parse_public_line(mutate(alice.public.line()))


def test_identity_file_with_mismatched_public_line_is_refused(alice):
    other = keys.generate("alice")
    text = keys.identity_to_text(alice).replace(alice.public.line(), other.public.line())
    with pytest.raises(KeyFormatError, match="does not match"):
        keys.identity_from_text(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "YAML mapping"),
        ("format: other/1\n", "format must be"),
        ("format: seki-identity/1\nname: a\n", "'public' is missing"),
        ("{{{", "not valid YAML"),
    ],
)
def test_broken_identity_file_is_refused_with_reason(text, message):
    with pytest.raises(KeyFormatError, match=message):
        keys.identity_from_text(text)


def test_openssh_key_from_cryptography_is_accepted():
    sk = Ed25519PrivateKey.generate()
    pem = sk.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    ident = keys.from_ssh_key("bob", pem)
    assert ident.public.signing.public_bytes_raw() == sk.public_key().public_bytes_raw()
    assert keys.identity_from_text(keys.identity_to_text(ident)).public == ident.public


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")
def test_openssh_key_from_ssh_keygen_is_accepted(tmp_path):
    path = tmp_path / "id_ed25519"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "bob@test", "-f", str(path)],
        check=True,
    )
    ident = keys.from_ssh_key("bob", path.read_bytes())
    ssh_pub = path.with_suffix(".pub").read_text().split()
    assert ident.public.openssh().split() == ssh_pub[:2]


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")
def test_passphrase_protected_ssh_key_needs_its_passphrase(tmp_path):
    path = tmp_path / "id_ed25519"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "sesame", "-f", str(path)], check=True
    )
    with pytest.raises(KeyFormatError, match="password"):
        keys.from_ssh_key("bob", path.read_bytes())
    try:
        import bcrypt  # noqa: F401 - cryptography needs it to decrypt OpenSSH keys
    except ImportError:
        with pytest.raises(KeyFormatError, match="need the Python package 'bcrypt'"):
            keys.from_ssh_key("bob", path.read_bytes(), b"sesame")
    else:
        assert keys.from_ssh_key("bob", path.read_bytes(), b"sesame").name == "bob"


def test_non_ed25519_ssh_key_is_refused():
    ec = generate_private_key(SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    with pytest.raises(KeyFormatError, match="not Ed25519"):
        keys.from_ssh_key("bob", ec)
    with pytest.raises(KeyFormatError, match="not a readable OpenSSH"):
        keys.from_ssh_key("bob", b"hello")
