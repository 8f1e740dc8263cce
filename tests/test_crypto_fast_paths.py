"""The fast paths of reading a signed document (crypto/canonical.py, crypto/signing.py)
give what the plain per-line reading gives, on any text: the same lines, the same body and
block, the same namespace, or the same refusal in the same words. The plain reading is
written out here as it was before the fast paths were added (`seki verify` reads every
document of an archive, issue 38): a regular expression matched on every line."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sekigahara_pbem.crypto import canonical, keys, signing, sshsig
from sekigahara_pbem.refusal import N_, Refusal, quoted

BODY = "format: seki-turn/1\ngame: demo-1\nsealed: |\n  -----BEGIN AGE ENCRYPTED FILE-----\n"
KEY = keys.generate("tokugawa")
SIGNED = BODY + "  abc\n  -----END AGE ENCRYPTED FILE-----\nnote: Mōri\n"
DOC = signing.sign(SIGNED, KEY)
LINES = [
    signing.BEGIN_DOCUMENT,
    signing.BEGIN_SIGNATURE,
    signing.END_SIGNATURE,
    sshsig.BEGIN,
    sshsig.END,
    "-----BEGIN SEKI OTHER-----",
    "-----BEGIN SE\u212aI DOCUMENT-----",  # KELVIN SIGN: NFC makes it a K
    "\ufeff" + signing.BEGIN_DOCUMENT,
    "  " + signing.BEGIN_DOCUMENT,
    "x" + signing.BEGIN_DOCUMENT,
    signing.BEGIN_DOCUMENT + " -",
    "-----",
    "  -----BEGIN AGE ENCRYPTED FILE-----",
    "format: seki-turn/1",
    "format: seki-packet/12",
    "format: seki-turn/1\x85x",
    "format: seki-turn/1x",
    "format: seki-Turn/1",
    "version: 2",
    "version: 1",
    "signer: tokugawa",
    "",
    " ",
    "\t",
    ">",
    "> ",
    "e\u0301",
]
QUOTES = st.sampled_from(["", "", "", "> ", ">", ">> ", "> > ", ">  "])
BREAKS = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", " \n", "\t\r\n", "\x0b", "\u2028"])
LINE = st.one_of(st.sampled_from(LINES), st.text(max_size=8), st.sampled_from(DOC.split("\n")))
SOUP = st.lists(st.tuples(QUOTES, LINE, BREAKS), max_size=30).map(
    lambda parts: "".join(q + line + brk for q, line, brk in parts)
)


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """A signed document with lines quoted, replaced, inserted or dropped, and text
    around it: mostly what a mail client does to one, and what an attacker might."""
    lines = DOC.split("\n")
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        action = draw(st.sampled_from(["insert", "replace", "drop", "quote"]))
        if action == "insert" or at == len(lines):
            lines.insert(at, draw(LINE))
        elif action == "replace":
            lines[at] = draw(LINE)
        elif action == "drop":
            del lines[at]
        else:
            quote = draw(QUOTES)
            lines[at:] = [quote + line for line in lines[at:]]
    return draw(BREAKS).join(lines)


TEXTS = st.one_of(SOUP, mangled())


def plain_canonical_lines(text: str) -> list[str]:
    text = unicodedata.normalize("NFC", text.replace("\ufeff", ""))
    lines = [line.rstrip(" \t") for line in re.split(r"\r\n|\r|\n", text)]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def plain_extract(text: str) -> list[str]:
    lines = plain_canonical_lines(text)
    quote = signing._QUOTE_PREFIX
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := quote.match(line))]
    if not starts:
        raise signing.NoSignatureBlock(
            N_("no signed document: no line {marker} found"),
            marker=quoted(signing.BEGIN_DOCUMENT),
        )
    if len(starts) > 1:
        starts = [s for s in starts if not s[1]]
        if len(starts) != 1:
            raise signing.SignatureError(
                N_("more than one signed document in the text; send one, or quote the others")
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
            raise signing.MalformedSignature(
                N_("line {number}: quoted document has an unquoted line"), number=number
            )
        out.append(line.rstrip(" \t"))
        if line == signing.END_SIGNATURE:
            return out
    if signing.BEGIN_SIGNATURE not in out:
        raise signing._no_block()
    raise signing.MalformedSignature(
        N_("signature block is not closed by {marker}"), marker=quoted(signing.END_SIGNATURE)
    )


def plain_split(text: str) -> tuple[str, signing.SignatureBlock]:
    lines = plain_extract(text)
    if signing.BEGIN_SIGNATURE not in lines:
        raise signing._no_block()
    sig_at = lines.index(signing.BEGIN_SIGNATURE)
    body_lines = lines[1:sig_at]
    for line in body_lines:
        if signing._MARKER.fullmatch(line) or line in (sshsig.BEGIN, sshsig.END):
            raise signing.MalformedSignature(
                N_("unexpected marker line {line} inside the document body"), line=quoted(line)
            )
    body = signing.canonicalise("\n".join(body_lines))
    return body, signing._parse_block(lines[sig_at + 1 : -1])


def plain_namespace(canon: str) -> str:
    for line in canon.splitlines():
        if match := signing._FORMAT.fullmatch(line):
            return signing.NAMESPACE.format(kind=match.group(1))
    return signing.NAMESPACE.format(kind="document")


def outcome(read, text: str) -> object:
    """What reading `text` gives: its result, or the refusal's class and words."""
    try:
        return read(text)
    except Refusal as exc:
        return type(exc), str(exc)


@settings(max_examples=300)
@given(TEXTS)
@example(DOC)
@example(DOC.replace("\n", "\r\n"))
@example("> " + DOC.replace("\n", "\n> "))
@example("> " + DOC.replace("\n", "\n> ").replace("game:", "game:\n>> "))
@example(DOC.replace("game:", sshsig.END + "\ngame:"))
@example(DOC.replace("game:", "-----BEGIN SEKI OTHER-----\ngame:"))
def test_lines_and_documents_are_read_as_line_by_line(text):
    assert canonical.split_lines(text) == re.split(r"\r\n|\r|\n", text)
    assert canonical.canonical_lines(text) == plain_canonical_lines(text)
    assert outcome(signing._extract, text) == outcome(plain_extract, text)
    assert outcome(signing.split, text) == outcome(plain_split, text)


@given(TEXTS)
@example(BODY)
@example("format: seki-turn/1\x85\nformat: seki-packet/1\n")
@example("format: seki-turn/1x\nformat: seki-packet/1\n")
def test_the_namespace_is_that_of_the_first_format_line(text):
    canon = canonical.canonicalise(text)
    assert signing._namespace(canon) == plain_namespace(canon)


def test_a_document_as_seki_writes_it_verifies():
    assert signing.verify(DOC, [KEY.public]).body == SIGNED
