"""Canonicalisation: the form that is signed is stable under mail-transport changes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sekigahara_pbem.crypto.canonical import canonicalise

PIECES = st.one_of(
    st.sampled_from(["\r\n", "\r", "\n", " ", "\t", "\ufeff", "e\u0301", "\u212b", "\x0b"]),
    st.characters(codec="utf-8"),
)
TEXT = st.lists(PIECES, max_size=40).map("".join)


@given(TEXT)
def test_canonicalisation_is_idempotent(text):
    once = canonicalise(text)
    assert canonicalise(once) == once


@given(TEXT)
def test_canonical_form_has_only_lf_and_no_trailing_blanks(text):
    canon = canonicalise(text)
    assert "\r" not in canon
    assert all(line == line.rstrip(" \t") for line in canon.split("\n"))
    assert canon == "" or (canon.endswith("\n") and not canon.endswith("\n\n"))
    assert not canon.startswith("\n")


@given(TEXT)
def test_crlf_and_trailing_spaces_do_not_change_the_canonical_form(text):
    mangled = "\r\n".join(line + " \t " for line in canonicalise(text).split("\n"))
    assert canonicalise(mangled) == canonicalise(text)


def test_rules_by_example():
    assert (
        canonicalise("\ufeff\n\ufeff\n a: 1  \r\nb:\te\u0301\t\r\rc\n\n\n")
        == " a: 1\nb:\t\u00e9\n\nc\n"
    )
    assert canonicalise("") == ""
    assert canonicalise(" \n\t\r\n") == ""
    # only CR, LF and CRLF break lines; other separators are content
    assert canonicalise("a\x0bb\u2028c") == "a\x0bb\u2028c\n"
    # only space and tab are trailing whitespace
    assert canonicalise("a\u00a0") == "a\u00a0\n"
