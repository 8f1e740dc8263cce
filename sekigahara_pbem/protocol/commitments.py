"""Per-item commitments: every hidden item is committed in every record, and opened when
the rules show it, so a player can check during the game that a block deployed, a card
played or a bid revealed is the one the referee had committed to before.

After each record the hidden items (rules/views.hidden_items: blocks not face up, cards in
hands and draw piles in order, sealed decisions) become leaves:

    leaf = commit(canonical_json([kind, item, place]), salt)      (crypto/commitments.py)
    salt = HMAC-SHA256(K, canonical_json([seq, kind, item]))

with K the game's commitment key (a referee secret, published by `reveal`). Salts are fresh
in every record, so leaves cannot be followed from one record to the next, and a salt
opened for one item says nothing about any other. The record publishes only the Merkle
root of the sorted leaves (RFC 6962 hashing: 0x00 before a leaf, 0x01 before two nodes),
and the number of leaves. When record N shows an item that was hidden after record N-1,
it opens that leaf: its value, salt, index and Merkle path, checkable against record N-1's
root.
"""

from __future__ import annotations

import hashlib
import hmac
import operator
import re
from typing import NamedTuple

from ..crypto.commitments import DOMAIN as COMMIT_DOMAIN
from ..crypto.commitments import SALT_BYTES, canonical_json, commit
from ..rules.state_types import State
from .documents import is_hex

KEY_BYTES = 32
_PLAIN = re.compile(r"[A-Za-z0-9_:.-]*")  # ids and places JSON writes as they are


class Leaf(NamedTuple):  # a tuple: tens of thousands are made in a verify
    key: tuple  # (kind, item): what is opened
    value: list  # [kind, item, place]
    salt: bytes
    digest: bytes  # the commitment's SHA-256, kept raw: it is hashed again in the tree

    @property
    def commitment(self) -> str:
        """The commitment as it is written (crypto/commitments.commit): hex."""
        return self.digest.hex()


def _plain(name: object) -> bool:
    """A string JSON writes as it is; the names met are kept (verify asks of the same
    few hundred ids and places tens of thousands of times)."""
    if type(name) is not str:
        return False
    if name in _PLAIN_SEEN:
        return True
    if not _PLAIN.fullmatch(name):
        return False
    if len(_PLAIN_SEEN) < 100_000:
        _PLAIN_SEEN.add(name)
    return True


_PLAIN_SEEN: set[str] = set()


def salt_for(key: bytes, seq: int, kind: str, item: str) -> bytes:
    if type(seq) is int and _plain(kind) and _plain(item):
        text = f'[{seq},"{kind}","{item}"]'  # canonical_json of plain names, written out
    else:
        text = canonical_json([seq, kind, item])
    mac = _keyed(key).copy()
    mac.update(text.encode())
    return mac.digest()


def _keyed(key: bytes) -> hmac.HMAC:
    """HMAC-SHA256 with `key` set up, to be copied for each salt: a record derives one
    salt per hidden item, and setting the key up again each time cost a fifth of it."""
    if _KEYED and _KEYED[0] == key:
        return _KEYED[1]
    mac = hmac.new(key, digestmod=hashlib.sha256)
    _KEYED[:] = [key, mac]
    return mac


_KEYED: list = []  # [key, its HMAC before any message] (a game has one commitment key)


def leaves(state: State, key: bytes, seq: int) -> list[Leaf]:
    """The sorted leaves of a state's hidden items. A record's leaves are needed again as
    the next record's previous ones (`chain.commitment_fields`): the last result is kept,
    and given again for the same key, record and hidden items."""
    from ..rules.views import hidden_items  # the engine's tables: not for `seki status`

    items = hidden_items(state)
    if _LAST and _LAST[0] == (key, seq, items):
        return list(_LAST[1])
    mac = _keyed(key)
    head = f"[{seq},".encode()  # how the salt's message starts (salt_for) for a whole seq
    whole = type(seq) is int
    out = []
    for kind, item, place in items:
        framed = _framed(kind, item, place) if whole else None
        if framed is None:
            salt = salt_for(key, seq, kind, item)
            digest = bytes.fromhex(commit(canonical_json([kind, item, place]), salt))
        else:
            salted = mac.copy()
            salted.update(head + framed[0])
            salt = salted.digest()
            digest = hashlib.sha256(_FRAME + salt + framed[1]).digest()
        out.append(Leaf((kind, item), [kind, item, place], salt, digest))
    out.sort(key=_DIGEST)  # the order of their hex: raw bytes sort as their hex does
    _LAST[:] = [(key, seq, items), tuple(out)]
    return out


_LAST: list = []  # [(key, seq, hidden items), leaves] of the last `leaves` computed
_DIGEST = operator.attrgetter("digest")


def _framed(kind: str, item: str, place: str) -> tuple[bytes, bytes] | None:
    """For an item of plain names (None otherwise), what `salt_for` and `commit` frame of
    it, written out: the salt's message after `[seq,` (`"kind","item"]`) and the length
    prefixed canonical JSON of [kind, item, place]. Kept: verify frames the same few
    hundred items in every record, tens of thousands of times."""
    names = (kind, item, place)
    framed = _FRAMED.get(names)
    if framed is None:
        if not (_plain(kind) and _plain(item) and _plain(place)):
            return None
        text = f'["{kind}","{item}","{place}"]'.encode()
        framed = (f'"{kind}","{item}"]'.encode(), len(text).to_bytes(4, "big") + text)
        if len(_FRAMED) < 100_000:
            _FRAMED[names] = framed
    return framed


_FRAMED: dict[tuple[str, str, str], tuple[bytes, bytes]] = {}
_FRAME = COMMIT_DOMAIN + (32).to_bytes(4, "big")  # before a 32-byte salt (crypto/commitments.py)


def _leaf_hash(digest: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + digest).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _tree(leaf_list: list[Leaf]) -> list[list[bytes]]:
    """The Merkle tree's levels over the leaves, leaves first. The last tree is kept: a
    record's root and the next record's openings of the same leaves both need it."""
    digests = tuple(leaf.digest for leaf in leaf_list)
    if _TREE and _TREE[0] == digests:
        return _TREE[1]
    level = [_leaf_hash(d) for d in digests] or [hashlib.sha256(b"").digest()]
    levels = [level]
    while len(level) > 1:
        level = [
            _node(level[i], level[i + 1]) if i + 1 < len(level) else level[i]
            for i in range(0, len(level), 2)
        ]
        levels.append(level)
    _TREE[:] = [digests, levels]
    return levels


_TREE: list = []  # [leaf digests, their tree's levels] of the last `_tree` built


def root(leaf_list: list[Leaf]) -> str:
    return _tree(leaf_list)[-1][0].hex()


def _path(levels: list[list[bytes]], index: int) -> list[str]:
    path = []
    for level in levels[:-1]:
        sibling = index ^ 1
        path.append(level[sibling].hex() if sibling < len(level) else "")
        index //= 2
    return path


def root_from_path(commitment: str, index: int, path: list[str]) -> str:
    """The root a leaf and its path lead to (an empty step: no sibling at that level)."""
    node = _leaf_hash(bytes.fromhex(commitment))
    for step in path:
        if step:
            sibling = bytes.fromhex(step)
            node = _node(node, sibling) if index % 2 == 0 else _node(sibling, node)
        index //= 2
    return node.hex()


def openings(before: list[Leaf], after_state: State, public_events: list) -> list:
    """The leaves of the previous record that this record's public events show, or that a
    reveal of sealed decisions resolves, with what checks them against the previous root."""
    shown: set[str] = set()
    for event in public_events:
        shown |= _strings(event)
    still_sealed = set(after_state["sealed"])
    levels = None  # the tree, built only if a leaf is opened
    out = []
    for index, leaf in enumerate(before):
        kind, item = leaf.key
        opened = item in shown if kind != "sealed" else item not in still_sealed
        if opened:
            levels = levels or _tree(before)
            out.append(
                {
                    "value": leaf.value,
                    "salt": leaf.salt.hex(),
                    "index": index,
                    "path": _path(levels, index),
                }
            )
    return out


def check_opening(opening: object, previous_root: str) -> bool:
    """True iff an opening proves its value was committed under the previous root. An
    opening comes from another party's record: its shape is checked before any of it is
    used (a value JSON cannot hold the same way twice, a salt or a step not hex)."""
    if not isinstance(opening, dict) or not _plain_value(opening.get("value")):
        return False
    salt, index, path = opening.get("salt"), opening.get("index"), opening.get("path")
    if not is_hex(salt, SALT_BYTES) or type(index) is not int or index < 0:
        return False
    if not isinstance(path, list) or len(path) > MAX_DEPTH:
        return False
    if not all(step == "" or is_hex(step, 32) for step in path):
        return False
    commitment = commit(canonical_json(opening["value"]), bytes.fromhex(salt))
    return root_from_path(commitment, index, path) == previous_root


MAX_DEPTH = 64  # no tree of leaves is deeper: 2**64 leaves


def _plain_value(value: object, depth: int = 0) -> bool:
    """A value as seki commits to them: text, whole numbers, booleans, null, and lists and
    string-keyed maps of these, not too deep (canonical_json refuses a float)."""
    if value is None or type(value) in (str, int, bool):
        return True
    if depth > MAX_DEPTH:
        return False
    if type(value) is list:
        return all(_plain_value(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain_value(v, depth + 1) for k, v in value.items())
    return False


def _strings(data: object) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data)) if data else set()
    return set()
