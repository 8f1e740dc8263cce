"""A YAML value PyYAML's constructors cannot make (a 30th of February, `!!bool maybe`, an
`!!int` of nothing, `!!timestamp x`) raised ValueError, KeyError, IndexError or
AttributeError out of PyYAML, and each was an internal error (exit 70) wherever seki read
YAML: a document, a component set, a scenario. Each is now refused as not valid YAML
(protocol/documents.constructed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_pbem_cli import seki

from sekigahara_pbem.protocol import documents as docs

DATA = Path(__file__).resolve().parent.parent / "sekigahara_pbem" / "rules" / "data"
VALUES = ["2026-02-30", "!!int x", "!!float x", "!!bool maybe", "!!bool", "!!int", "!!timestamp x"]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("plain", [False, True])
def test_a_document_holding_it_is_refused(value, plain):
    for text in (f"a: {value}\n", f"a: [1, {{b: {value}}}]\n", f"{value}\n"):
        with pytest.raises(docs.DocumentError) as caught:
            docs.load_yaml(text, "x.txt", plain=plain)
        assert str(caught.value).startswith("x.txt: not valid YAML")


@pytest.mark.parametrize("value", ["!!bool maybe", "!!int", "!!timestamp x"])
def test_a_component_set_holding_it_is_refused(tmp_path, value):
    folder = tmp_path / "set"
    shutil.copytree(DATA, folder)
    board = folder / "board.yaml"
    text = board.read_text(encoding="utf-8")
    board.write_text(text.replace("\nformat:", f"\nodd: {value}\nformat:", 1), encoding="utf-8")
    done = seki(tmp_path / "home", "components", "check", str(folder), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "board.yaml: not valid YAML" in done.stderr and "internal error" not in done.stderr


@pytest.mark.parametrize("value", ["!!bool maybe", "!!int", "!!timestamp x"])
def test_a_scenario_holding_it_fails_by_name(tmp_path, value):
    (tmp_path / "odd.yaml").write_text(f"name: odd\nsetup: {value}\n", encoding="utf-8")
    done = seki(tmp_path / "home", "scenario", "run", "odd.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "FAIL odd.yaml: not valid YAML" in done.stdout and "internal error" not in done.stderr
