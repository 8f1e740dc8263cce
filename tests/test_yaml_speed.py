"""libyaml parses documents when it safely can (issue 18), and gives exactly what PyYAML's
own loader gives; a document nested deeply enough to crash libyaml's recursion in C is
parsed by PyYAML's loader instead, and refused with a one-line reason."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sekigahara_pbem.crypto import signing
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
