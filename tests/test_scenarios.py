"""The conformance suite: every scenario file passes, every rule the engine enforces has a
named case, and the runner itself catches a wrong expectation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sekigahara_pbem import i18n
from sekigahara_pbem.testing.scenario_files import load_scenario, scenario_components
from sekigahara_pbem.testing.scenario_runner import CHECKS, Check, run_scenario

FOLDER = Path(__file__).parent / "scenarios"
FILES = sorted(FOLDER.glob("*.yaml"))

# Rules the engine enforces that must each have at least one named scenario case.
COVERED_RULES = [
    "2.1",
    "2.2",
    "3.3",
    "4.2",
    "4.3",
    "4.5",
    "5.1",
    "5.2.1",
    "5.2.2",
    "5.2.3",
    "6.1",
    "6.2",
    "6.3",
    "6.4",
    "7.1",
    "7.2",
    "7.3.1",
    "7.3.2",
    "7.3.3",
    "7.3.4",
    "7.3.5",
    "7.4.1",
    "7.4.2",
    "7.4.3",
    "8.1",
    "8.2.1",
    "8.2.2",
    "8.2.3",
    "8.2.4",
    "8.3.1",
    "8.3.2",
    "8.3.3",
    "8.4.1",
    "8.4.2",
    "8.5",
    "8.6.1",
    "8.6.2",
    "8.6.3",
    "8.7.1",
    "8.7.2",
    "8.7.3",
    "8.8.1",
    "8.8.2",
    "8.8.3",
    "8.8.4",
    "8.8.5",
    "8.9.1",
    "8.9.2",
    "8.9.3",
    "8.9.4",
    "8.9.5",
    "8.9.6",
    "8.10",
    "9.1",
    "9.2",
    "9.3",
    "9.4",
    "9.5",
]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    doc = load_scenario(path)
    result = run_scenario(scenario_components(doc, path), doc)
    assert result.passed, "\n".join(result.failures + result.log)


def test_every_rule_has_a_named_case():
    named = {r for p in FILES for r in load_scenario(p).get("rules", [])}
    missing = [r for r in COVERED_RULES if r not in named]
    assert not missing, f"rules without a scenario case: {missing}"


def test_a_wrong_expectation_fails_and_the_cli_says_so(tmp_path, comp):
    doc = load_scenario(FOLDER / "rulebook_movement_example.yaml")
    doc["expect"] = {"control": {"kyoto": "tokugawa"}}
    assert not run_scenario(comp, doc).passed
    bad = tmp_path / "wrong.yaml"
    bad.write_text(
        (FOLDER / "rulebook_movement_example.yaml")
        .read_text(encoding="utf-8")
        .replace("control: {kyoto: ishida", "control: {kyoto: tokugawa"),
        encoding="utf-8",
    )
    garbage = tmp_path / "garbage.yaml"
    garbage.write_text("steps: [: :", encoding="utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "sekigahara_pbem",
            "scenario",
            "run",
            str(FOLDER / "rulebook_movement_example.yaml"),
            str(bad),
            str(garbage),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert "PASS rulebook_movement_example.yaml" in out.stdout
    assert "FAIL wrong.yaml" in out.stdout and "kyoto is ishida, expected tokugawa" in out.stdout
    assert "FAIL" in out.stdout and "garbage.yaml" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_a_refusal_under_the_wrong_rule_fails(comp):
    doc = load_scenario(FOLDER / "rulebook_movement_example.yaml")
    doc["steps"][2]["expect_error"] = "7.3.1"  # the real refusal is 7.3.5
    result = run_scenario(comp, doc)
    assert any("refused under 7.3.5" in f for f in result.failures)


WRONG_SHAPES = {  # an expectation's key -> values of a shape it does not take
    "blocks": [["osaka"], {"osaka": "ukita-2a"}, {"osaka": [1]}, None],
    "stacks": [{"osaka": 3}, {"osaka": {"ishida": "two"}}, {"osaka": {"mori": 1}}],
    "control": [["kyoto"], {"kyoto": "ishid"}, {"kyoto": ["ishida"]}],
    "castles": [{"osaka": 3}, "osaka"],
    "besieged": ["osaka", {"osaka": True}],
    "disks": [{"ishida-disk": 3}, ["edo"]],
    "result": ["ishida", ["ishida"]],
    "hand": [{"ishida": "mori-1"}, {"shimazu": []}, ["mori-1"]],
    "hand_size": [{"ishida": "3"}, {"ishida": True}, 3],
    "discard": [{"tokugawa": [1]}, {"tokugawa": None}],
    "discard_size": [[1], {"ishida": 1.5}],
    "deck_size": [{"public": 3}, {None: 3}],
    "events": [{"type": "battle"}, ["battle"], "battle"],
    "no_events": ["battle", [["battle"]]],
    "phase": ["movement", ["movement"]],
    "fight": [[1], "retreat"],
    "pending": [{"side": "ishida"}, "deploy"],
    "points": [{"ishida": "many"}, {"referee": 3}, [3, 4]],
    "view": [{"referee": {}}, {"ishida": [1]}, "public"],
    "hidden": [{"ishida": "mori-1"}, {"umpire": ["x"]}, {"public": [1]}],
}


def test_every_expectation_with_a_shape_has_its_wrong_shapes_tried():
    with_shape = {key for key, check in CHECKS.items() if check.shape is not None}
    assert with_shape == set(WRONG_SHAPES)


@pytest.mark.parametrize(
    ("key", "want"),
    [(key, want) for key, wants in WRONG_SHAPES.items() for want in wants],
    ids=lambda v: v if isinstance(v, str) and v in WRONG_SHAPES else repr(v),
)
def test_an_expectation_of_the_wrong_shape_is_the_files_mistake(comp, key, want):
    """A value its key does not take fails the scenario with the shape the key takes
    (docs/scenarios.md, Expectations), after a step as at the end; nothing crashes."""
    words = CHECKS[key].shape.words
    at_end = run_scenario(comp, {"setup": None, "expect": {key: want}})
    assert at_end.failures == [f"expect: {key}: {words}"]
    doc = load_scenario(FOLDER / "rulebook_movement_example.yaml")
    doc["steps"][0]["expect"] = {key: want}
    after_a_step = run_scenario(comp, doc)
    assert after_a_step.failures == [f"step 1: {key}: {words}"]


def test_a_wrong_shape_is_named_in_words_the_author_reads(comp):
    doc = {"setup": None, "expect": {"blocks": ["osaka"]}}
    result = run_scenario(comp, doc)
    assert result.failures == [
        "expect: blocks: expected a mapping of location to a list of block ids"
    ]
    with i18n.using("hu"):
        result = run_scenario(comp, doc)
    assert result.failures == [
        "expect: blocks: várt: helyszínekhez tömbazonosítók listáját rendelő leképezés"
    ]


def test_a_check_that_fails_on_a_value_of_its_shape_is_a_bug(comp, monkeypatch):
    """Once the shape is right, nothing is caught: a checker's crash is the runner's bug
    and surfaces as one (an internal error under `seki scenario run`)."""

    def broken(comp, state, events, want):
        raise KeyError("a bug in the checker")

    monkeypatch.setitem(CHECKS, "blocks", Check(CHECKS["blocks"].shape, broken))
    with pytest.raises(KeyError, match="a bug in the checker"):
        run_scenario(comp, {"setup": None, "expect": {"blocks": {"osaka": []}}})
