"""libyaml parses documents when it safely can (issue 18), and gives exactly what PyYAML's
own loader gives; a document nested deeply enough to crash libyaml's recursion in C is
parsed by PyYAML's loader instead, and refused with a one-line reason."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.protocol import component_files
from sekigahara_pbem.protocol import documents as docs

DEMO = Path(__file__).resolve().parent.parent / "games" / "demo"


def test_libyaml_reads_every_archive_document_as_pyyaml_does():
    if docs._FAST is None:
        pytest.skip("PyYAML was built without libyaml")
    paths = sorted(p for p in DEMO.rglob("*.txt") if p.parent.name in ("records", "packets"))
    assert len(paths) > 500
    for path in paths:
        text, _ = signing.split(path.read_text(encoding="utf-8"))
        assert docs.safe_loader(text) is docs._FAST, path
        assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.safe_load(text), path


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        "{a: " * 50_000 + "1" + "}" * 50_000,
        "- " * 200_000 + "x\n",
        "".join(" " * i + "a:\n" for i in range(1200)),
    ],
    ids=["flow sequences", "flow mappings", "block sequences", "indented mappings"],
)
def test_deep_nesting_never_reaches_libyaml(text):
    assert docs.safe_loader(text) is docs._Safe  # PyYAML's own, numbers bounded
    try:
        docs.load_yaml(text, "deep.txt")
    except docs.DocumentError as exc:
        assert str(exc).startswith("deep.txt: ")


_LINES = st.tuples(st.integers(0, 520), st.sampled_from(" ?-"), st.text("[{a -?\r", max_size=60))


@settings(max_examples=200)
@given(st.lists(_LINES, max_size=6), st.integers(0, 900))
def test_the_loader_is_picked_by_the_deepest_nesting_the_text_allows(lines, flows):
    text = "[" * flows + "\n".join(char * n + tail for n, char, tail in lines)
    lead = max(map(len, docs._LEAD.findall(text)), default=0)
    bound = text.count("[") + text.count("{") + 2 * (lead + 1)
    expected = docs._FAST if docs._FAST is not None and bound <= docs.FAST_DEPTH else docs._Safe
    assert docs.safe_loader(text) is expected


_TOKENS = [  # scalars YAML 1.1 reads as something other than text, and some that look so
    "0",
    "-0",
    "+5",
    "007",
    "0x1F",
    "0o17",
    "0b101",
    "1_000",
    "1:30",
    "3.5",
    ".inf",
    "-.Inf",
    ".nan",
    "1e3",
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "true",
    "False",
    "~",
    "null",
    "NULL",
    "",
    "2026-01-01",
    "2026-02-30",
    "2026-01-01 12:00:00Z",
    "9" * 19,
    "9" * 120,
    "7" * 5000,
    "-12345",
    "a: b",
    "- x",
    "#c",
    "'q'",
    '"d"',
    "x y",
    "é",
    "!!str 5",
    "!!int 7",
    "!!float 1",
    "!!binary aGk=",
    "!!set {a}",
    "!foo x",
    "&a 1",
    "*a",
    "<<: {a: 1}",
    "[1, 2]",
    "{a: 1}",
    "? [1]\n: x",
]


_SHAPES = st.recursive(
    st.sampled_from(_TOKENS),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(_TOKENS), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(_SHAPES, st.booleans())
@settings(max_examples=400, deadline=None)
def test_documents_are_built_as_pyyaml_builds_them(shape, flow):
    """`documents._load` builds plain documents' objects itself: whatever the text, it
    gives what PyYAML's constructor gives, or raises what it raises (`constructed`: as a
    YAMLError where a constructor raised another error). The texts: tricky scalars
    written raw into block or flow collections (many are not valid YAML)."""
    if docs._FAST is None:
        pytest.skip("PyYAML was built without libyaml")
    text = _raw(shape, flow, 0)
    assert _outcome(lambda: docs._load(text, docs._FAST)) == _outcome(
        lambda: docs.constructed(text, docs._FAST)
    )


REFUSALS = ("ComposerError", "ConstructorError", "ParserError", "ScannerError")


@given(_SHAPES, st.booleans())
@settings(max_examples=400, deadline=None)
@example({"&a 1": ["&a 1"], "0": "0", "7" * 5000: "*a"}, False)
def test_a_games_component_set_is_read_by_libyaml_as_pyyaml_reads_it(shape, flow):
    """A game's component manifests are read by libyaml where PyYAML's own loader read
    them (thirty times slower: 0.2 s for the three): the same objects, numbers too long
    and dates that cannot be kept as `Unread`, and what one refuses the other refuses
    (as a YAMLError, aliases included). A text with two faults may be refused for either:
    libyaml parses the whole text before it composes (above, a key longer than 1024
    characters: a ScannerError), PyYAML composes as it goes (a duplicate anchor first: a
    ComposerError); the parsers word their messages apart too."""
    if component_files._FAST is None:
        pytest.skip("PyYAML was built without libyaml")
    text = _raw(shape, flow, 0)
    fast = _outcome(lambda: component_files._manifest_load(text))
    slow = _outcome(lambda: docs.constructed(text, component_files._ManifestLoader))
    assert fast[0] == slow[0]
    if fast[0] == "read":
        assert fast == slow
    else:
        assert fast[1] in REFUSALS and slow[1] in REFUSALS


def _raw(shape: object, flow: bool, indent: int) -> str:
    """The shape written as YAML by hand, its scalars unquoted (so read as YAML reads them)."""
    pad = " " * indent
    if isinstance(shape, list):
        if flow:
            return "[" + ", ".join(_raw(x, True, 0) for x in shape) + "]"
        return "".join(f"{pad}- {_raw(x, False, indent + 2).lstrip()}\n" for x in shape) or "[]"
    if isinstance(shape, dict):
        if flow:
            return "{" + ", ".join(f"{k}: {_raw(v, True, 0)}" for k, v in shape.items()) + "}"
        out = ""
        for key, value in shape.items():
            inner = _raw(value, False, indent + 2)
            nested = isinstance(value, list | dict) and value
            out += f"{pad}{key}:" + (f"\n{inner}" if nested else f" {inner.strip()}\n")
        return out or "{}"
    return str(shape)


def _outcome(read) -> tuple:  # noqa: ANN001 - a function of no arguments
    try:
        return ("read", repr(read()))
    except Exception as exc:  # noqa: BLE001 - the same error, whatever it is
        return ("raised", type(exc).__name__, str(exc))
