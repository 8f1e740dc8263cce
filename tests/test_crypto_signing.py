"""Signed documents: verify after any mail transport change, fail after any real change."""

from __future__ import annotations

import email
import email.policy
import quopri
from email.message import EmailMessage

import pytest

from sekigahara_pbem.crypto import keys, signing
from sekigahara_pbem.crypto.signing import (
    BadSignature,
    MalformedSignature,
    NoSignatureBlock,
    SignatureError,
    UnknownSigner,
)
from sekigahara_pbem.refusal import Refusal

BODY = (
    "game: demo-1\n"
    "side: tokugawa\n"
    "answers: 12\n"
    "actions:\n"
    "  - {type: move, from: edo, to: odawara}  \n"
    "  - note: Mōri arrive\n"
)


@pytest.fixture(scope="module")
def tokugawa() -> keys.Identity:
    return keys.generate("tokugawa")


@pytest.fixture(scope="module")
def ishida() -> keys.Identity:
    return keys.generate("ishida")


@pytest.fixture(scope="module")
def doc(tokugawa) -> str:
    return signing.sign(BODY, tokugawa)


def test_sign_verify_round_trip(doc, tokugawa, ishida):
    result = signing.verify(doc, [ishida.public, tokugawa.public])
    assert result.signer == tokugawa.public
    assert result.body == BODY.replace("}  \n", "}\n")
    assert doc.startswith(signing.BEGIN_DOCUMENT + "\n")
    assert max(len(line) for line in doc.splitlines()) <= 76


def test_every_single_byte_flip_is_detected(doc, tokugawa):
    raw = doc.encode("utf-8")
    for mask in (0x01, 0x20, 0x80):
        for i in range(len(raw)):
            flipped = bytearray(raw)
            flipped[i] ^= mask
            with pytest.raises(SignatureError):
                signing.verify(bytes(flipped), [tokugawa.public])


def test_every_single_byte_deletion_is_detected(doc, tokugawa):
    raw = doc.encode("utf-8")
    assert raw.endswith(b"-----\n")  # the final LF ends the text; it is not content
    for i in range(len(raw) - 1):
        with pytest.raises(SignatureError):
            signing.verify(raw[:i] + raw[i + 1 :], [tokugawa.public])


def test_survives_crlf_and_cr_line_endings(doc, tokugawa):
    assert signing.verify(doc.replace("\n", "\r\n"), [tokugawa.public]).body
    assert signing.verify(doc.replace("\n", "\r"), [tokugawa.public]).body


def test_survives_trailing_whitespace_and_blank_lines(doc, tokugawa):
    mangled = "\n\n" + "".join(line + " \t \n" for line in doc.splitlines()) + "\n\n"
    assert signing.verify(mangled, [tokugawa.public]).signer == tokugawa.public


def test_survives_being_pasted_into_a_mail_with_text_around_it(doc, tokugawa):
    mail = (
        "Hi referee,\n\nhere is my turn.\n\n> On Monday you wrote:\n> your move\n\n"
        + doc
        + "\n-- \nTokugawa\n> -----END SEKI SIGNATURE-----\n"
    )
    assert signing.verify(mail, [tokugawa.public]).signer == tokugawa.public


def test_survives_being_quoted_in_a_reply(doc, tokugawa):
    quoted = "Referee wrote:\n" + "".join(
        ("> " + line if line else ">") + "\n" for line in doc.splitlines()
    )
    assert signing.verify(quoted, [tokugawa.public]).signer == tokugawa.public


def test_survives_quoted_printable_with_quopri(doc, tokugawa):
    encoded = quopri.encodestring(doc.replace("\n", "  \r\n").encode("utf-8"))
    assert b"=20" in encoded or b"=\r\n" in encoded or b"=C5" in encoded
    decoded = quopri.decodestring(encoded)
    assert signing.verify(decoded, [tokugawa.public]).signer == tokugawa.public


def test_survives_quoted_printable_email_message(doc, tokugawa):
    msg = EmailMessage()
    msg["From"] = "tokugawa@example.org"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "turn 12"
    msg.set_content("Hello,\n\n" + doc + "\nregards\n", cte="quoted-printable")
    wire = msg.as_bytes(policy=email.policy.SMTP)
    assert b"Content-Transfer-Encoding: quoted-printable" in wire
    parsed = email.message_from_bytes(wire, policy=email.policy.default)
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    assert signing.verify(text, [tokugawa.public]).signer == tokugawa.public


def test_missing_document_or_block_is_reported(doc, tokugawa):
    with pytest.raises(NoSignatureBlock, match="no line '-----BEGIN SEKI DOCUMENT-----'"):
        signing.verify("hello\n", [tokugawa.public])
    body_only = doc.split(signing.BEGIN_SIGNATURE)[0]
    with pytest.raises(NoSignatureBlock, match="no signature block"):
        signing.verify(body_only, [tokugawa.public])


def test_unclosed_or_malformed_block_is_reported(doc, tokugawa):
    with pytest.raises(MalformedSignature, match="not closed"):
        signing.verify(doc.replace(signing.END_SIGNATURE, ""), [tokugawa.public])
    with pytest.raises(MalformedSignature, match="expected 'signer: ...'"):
        signing.verify(doc.replace("signer: ", "signed-by: "), [tokugawa.public])
    with pytest.raises(MalformedSignature, match="unsupported version"):
        signing.verify(doc.replace("version: 2", "version: 3"), [tokugawa.public])
    with pytest.raises(MalformedSignature, match="SSHSIG"):
        signing.verify(doc.replace("\n-----END SSH", "A\n-----END SSH"), [tokugawa.public])
    public = keys.parse_public_line(VECTOR_PUBLIC)
    with pytest.raises(MalformedSignature, match="two lines of 44"):  # version 1
        signing.verify(VECTOR_DOC.replace("sig: ", "sig: A", 1), [public])


def test_unknown_signer_is_reported(doc, ishida, tokugawa):
    with pytest.raises(UnknownSigner, match=r"unknown key \w+ \(claims to be 'tokugawa'"):
        signing.verify(doc, [ishida.public])
    with pytest.raises(UnknownSigner, match="belongs to 'tokugawa'"):
        signing.verify(doc.replace("signer: tokugawa", "signer: ishida"), [tokugawa.public])


def test_altered_body_is_a_bad_signature(doc, tokugawa):
    with pytest.raises(BadSignature, match="changed after signing"):
        signing.verify(doc.replace("odawara", "osaka"), [tokugawa.public])


def test_signature_by_another_key_is_bad(doc, tokugawa, ishida):
    forged = signing.sign(BODY, ishida)
    block = forged.split(signing.BEGIN_SIGNATURE)[1]
    mixed = doc.split(signing.BEGIN_SIGNATURE)[0] + signing.BEGIN_SIGNATURE + block
    # the forger's own key id and name: verifies only as ishida, never as tokugawa
    assert signing.verify(mixed, [tokugawa.public, ishida.public]).signer == ishida.public
    kid_t, kid_i = tokugawa.public.key_id, ishida.public.key_id
    relabelled = mixed.replace(kid_i, kid_t).replace("signer: ishida", "signer: tokugawa")
    with pytest.raises(BadSignature):
        signing.verify(relabelled, [tokugawa.public, ishida.public])


def test_two_documents_in_one_text_are_refused(doc, tokugawa):
    with pytest.raises(SignatureError, match="more than one"):
        signing.verify(doc + doc, [tokugawa.public])


def test_reply_quoting_the_previous_packet_verifies_the_unquoted_document(doc, tokugawa, ishida):
    packet = signing.sign("packet: 11\n", ishida)
    quoted = "".join("> " + line + "\n" for line in packet.splitlines())
    mail = "my turn:\n" + doc + "\nOn Monday the referee wrote:\n" + quoted
    assert signing.verify(mail, [tokugawa.public]).signer == tokugawa.public


def test_bodies_that_cannot_be_signed_are_refused(tokugawa):
    with pytest.raises(Refusal, match="empty"):
        signing.sign(" \n\n", tokugawa)
    with pytest.raises(Refusal, match="marker line"):
        signing.sign("a: 1\n-----END SEKI SIGNATURE-----\n", tokugawa)


VECTOR_DOC = """\
-----BEGIN SEKI DOCUMENT-----
game: demo-1
seq: 0
-----BEGIN SEKI SIGNATURE-----
version: 1
signer: referee
key: 6976e1f08d5110122332800e37671983c43c3d84a2e3e82165b5d199bfaf8aa3
sig: 5oR+1B24kc3/9TME38DiCkw4VjQey8DD4miYZ9QPbWMH
sig: opsHNNxPuc30kBGC2MbntxIN7TkoExuzYP7UKxMvBg==
-----END SEKI SIGNATURE-----
"""
VECTOR_PUBLIC = (
    "seki1:referee:iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w:"
    "zo060cy2M-x7cMF4FKXHbs0CloUFDTRHRboFhw5YfVk"
)


VECTOR_DOC_2 = """\
-----BEGIN SEKI DOCUMENT-----
format: seki-record/1
game: demo-1
seq: 0
-----BEGIN SEKI SIGNATURE-----
version: 2
signer: referee
key: 6976e1f08d5110122332800e37671983c43c3d84a2e3e82165b5d199bfaf8aa3
-----BEGIN SSH SIGNATURE-----
U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgiojj3XQJ8ZX9UtstPLpdcspnCb
8dlBIb83SIAbQPb1wAAAAWcmVjb3JkQHNla2lnYWhhcmEtcGJlbQAAAAAAAAAGc2hhNTEy
AAAAUwAAAAtzc2gtZWQyNTUxOQAAAEC0sDLxHWn+2RImZWA80TKd00o+Ua8V4tHmdAlKfR
35r4yCpdWZXRZTzBtVmGiDEbiMJA0Z8+lFAa4XW2LAnacE
-----END SSH SIGNATURE-----
-----END SEKI SIGNATURE-----
"""


def test_signed_document_test_vectors_from_docs():
    """The vectors in docs/crypto.md: fixed keys (Ed25519 seed 01*32, X25519 02*32); a
    document is signed in version 2 (SSHSIG), and version 1 still verifies."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    ident = keys.Identity(
        "referee",
        Ed25519PrivateKey.from_private_bytes(bytes([1]) * 32),
        X25519PrivateKey.from_private_bytes(bytes([2]) * 32),
    )
    assert ident.public.line() == VECTOR_PUBLIC
    assert ident.public.fingerprint == "6976 e1f0 8d51 1012 2332 800e 3767 1983"
    body = "format: seki-record/1\ngame: demo-1\nseq: 0\n"
    assert signing.sign(body, ident) == VECTOR_DOC_2
    public = keys.parse_public_line(VECTOR_PUBLIC)
    assert signing.verify(VECTOR_DOC_2, [public]).body == body
    assert signing.verify(VECTOR_DOC, [public]).body == "game: demo-1\nseq: 0\n"
