"""A record's commitments (protocol/commitments.py) are the ones its docstring defines, on
any hidden items, plain names or not: each salt an HMAC of the item, each leaf the
commitment of crypto/commitments.commit, sorted by their hex, under an RFC 6962 tree whose
paths open every leaf. The definition is computed here the plain way and compared with the
fast one `seki verify` runs tens of thousands of times (issue 38)."""

from __future__ import annotations

import hashlib
import hmac
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from sekigahara_pbem.crypto.commitments import canonical_json, commit
from sekigahara_pbem.protocol import commitments
from sekigahara_pbem.rules import views

NAMES = st.one_of(
    st.sampled_from(["block", "card", "sealed", "T-12", "hand:ishida", "deck:tokugawa:3"]),
    st.text(max_size=6),
    st.text(alphabet='"\\ñ{}[]:,é', max_size=4),
)
ITEMS = st.lists(st.tuples(NAMES, NAMES, NAMES), max_size=12)


def plain_root(hexes: list[str]) -> str:
    level = [hashlib.sha256(b"\x00" + bytes.fromhex(h)).digest() for h in hexes]
    level = level or [hashlib.sha256(b"").digest()]
    while len(level) > 1:
        pairs = [level[i : i + 2] for i in range(0, len(level), 2)]
        level = [
            hashlib.sha256(b"\x01" + p[0] + p[1]).digest() if len(p) == 2 else p[0] for p in pairs
        ]
    return level[0].hex()


@given(ITEMS, st.binary(min_size=32, max_size=32), st.integers(0, 10**9))
def test_leaves_root_and_openings_are_as_defined(items, key, seq):
    expected = []
    for kind, item, place in items:
        salt = hmac.new(key, canonical_json([seq, kind, item]).encode(), "sha256").digest()
        commitment = commit(canonical_json([kind, item, place]), salt)
        expected.append(((kind, item), [kind, item, place], salt, commitment))
    expected.sort(key=lambda leaf: leaf[3])
    with mock.patch.object(views, "hidden_items", lambda state: list(items)):
        leaves = commitments.leaves({}, key, seq)
    assert [(leaf.key, leaf.value, leaf.salt, leaf.commitment) for leaf in leaves] == expected
    root = commitments.root(leaves)
    assert root == plain_root([leaf[3] for leaf in expected])
    shown = [[item for _kind, item, _place in items]]
    opened = commitments.openings(leaves, {"sealed": {}}, shown)
    assert len(opened) == len(leaves)
    assert all(commitments.check_opening(opening, root) for opening in opened)
