"""The default component set obeys the rulebook's fixed facts (3, 4, 5, 9), and bad
manifests are refused with the path of the offending field."""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
import yaml

from sekigahara_pbem.component_files import components_hash, load_components
from sekigahara_pbem.rules.components import ComponentError, build_components
from sekigahara_pbem.rules.vocab import ISHIDA, TOKUGAWA

DATA = resources.files("sekigahara_pbem.rules") / "data"


def _docs():
    return {
        n: yaml.safe_load((DATA / f"{n}.yaml").read_text(encoding="utf-8"))
        for n in ("board", "blocks", "cards")
    }


def test_3_blocks_48_per_side_and_two_disks(comp):
    assert len(comp.side_blocks(ISHIDA)) == 48
    assert len(comp.side_blocks(TOKUGAWA)) == 48
    assert {d.location for d in comp.disks.values()} == {"osaka", "ueda"}  # 9.1, 9.2


def test_3_2_strength_one_to_four_and_ii_the_only_four(comp):
    assert all(1 <= b.mon <= 4 for b in comp.blocks.values())
    assert [b.id for b in comp.blocks.values() if b.mon == 4] == ["ii-naomasa"]  # 9.4


def test_8_2_2_only_ishida_and_ii_deploy_with_any_card(comp):
    assert sorted(b.id for b in comp.blocks.values() if b.any_card) == [
        "ii-naomasa",
        "ishida-mitsunari",
    ]


def test_2_1_protagonists_have_three_dot_nobori(comp):
    assert comp.protagonist(ISHIDA) == "ishida-mitsunari"
    assert comp.protagonist(TOKUGAWA) == "tokugawa-leader"


def test_9_3_mori_box_holds_leader_and_four_blocks(comp):
    box = [b for b in comp.blocks.values() if b.setup == comp.mori_box_symbol]
    assert len(box) == 5 and sum(1 for b in box if b.leader) == 1
    assert all(b.clan == "mori" for b in box)
    assert comp.mori_entry == "osaka"


def test_5_2_1_kiyosu_star_holds_fukushima_and_ii(comp):
    star = sorted(b.id for b in comp.blocks.values() if b.setup == "black_star")
    assert star == ["fukushima-cav", "fukushima-leader", "ii-naomasa"]
    assert comp.locations["kiyosu"].setup_symbol == "black_star"


def test_4_5_capitals_and_the_example_highways(comp):
    assert comp.locations["kyoto"].capital == ISHIDA
    assert comp.locations["edo"].capital == TOKUGAWA
    assert comp.locations["kyoto"].resource and comp.locations["edo"].resource
    for a, b in (("osaka", "kyoto"), ("kyoto", "minakuchi"), ("minakuchi", "kuwana")):
        assert comp.road(a, b) is True
    assert comp.locations["osaka"].castle == ISHIDA
    assert comp.locations["ueda"].castle == ISHIDA


def test_8_6_tokugawa_has_one_more_loyalty_challenge(comp):
    counts = {
        s: sum(1 for c in comp.cards.values() if c.deck == s and c.kind == "loyalty")
        for s in (ISHIDA, TOKUGAWA)
    }
    assert counts[TOKUGAWA] == counts[ISHIDA] + 1


def test_6_3_bid_numbers_unique(comp):
    bids = [c.bid for c in comp.cards.values()]
    assert len(bids) == len(set(bids))


def test_6_2_recruitment_track(comp):
    assert comp.recruitment_track == {2: 2, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1}


BREAKAGES = [
    ("board", lambda d: d["locations"].append(dict(d["locations"][0])), "duplicate location"),
    ("board", lambda d: d["roads"].append(["osaka", "atlantis", "road"]), "unknown location"),
    ("board", lambda d: d["roads"].append(["osaka", "kyoto", "road"]), "duplicate road"),
    ("board", lambda d: d["locations"][1].update(castle="purple"), "castle"),
    (
        "board",
        lambda d: d["locations"][1].update(random_blocks={"side": "gold", "count": 5}),
        "random_blocks.count",
    ),
    (
        "board",
        lambda d: d.update(roads=[r for r in d["roads"] if "himeji" not in r[:2]]),
        "not connected",
    ),
    ("blocks", lambda d: d["blocks"][0].update(mon=5), "mon"),
    ("blocks", lambda d: d["blocks"][0].update(ability="archer"), "ability"),
    ("blocks", lambda d: d["blocks"][0].update(clan="oda"), "unknown clan"),
    ("blocks", lambda d: d["blocks"][0].update(leader=0), "three-dot leader"),
    ("blocks", lambda d: d["blocks"][1].update(setup="purple_hexagon"), "no location"),
    ("cards", lambda d: d["cards"][1].update(bid=d["cards"][0]["bid"]), "unique"),
    ("cards", lambda d: d["cards"][0].update(clan="date"), "no mon"),
    ("cards", lambda d: d["cards"][1].update(kind="joker"), "kind"),
    ("cards", lambda d: d["cards"][1].update(bid="high"), "expected int"),
    ("cards", lambda d: d["cards"][1].update(id="mori-3a"), "also used by a block"),
]


@pytest.mark.parametrize(("manifest", "breakage", "message"), BREAKAGES)
def test_broken_manifests_are_refused_with_a_path(manifest, breakage, message):
    docs = _docs()
    broken = copy.deepcopy(docs)
    breakage(broken[manifest])
    with pytest.raises(ComponentError) as info:
        build_components(broken["board"], broken["blocks"], broken["cards"])
    assert message in str(info.value)
    assert info.value.where.startswith(manifest) or info.value.where.startswith("card ")


def _copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "components"
    shutil.copytree(Path(str(DATA)), target)
    return target


def test_an_owner_can_load_a_corrected_set(tmp_path):
    folder = _copy_data(tmp_path)
    board = folder / "board.yaml"
    board.write_text(
        board.read_text(encoding="utf-8").replace("name: Default board", "name: My printed board"),
        encoding="utf-8",
    )
    comp = load_components(folder)
    assert comp.name.startswith("My printed board")
    assert components_hash(folder) != components_hash()


def _seki(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args], capture_output=True, text=True, timeout=60
    )


def test_components_check_cli_reports_ok_and_errors(tmp_path):
    ok = _seki("components", "check")
    assert ok.returncode == 0 and "OK" in ok.stdout
    folder = _copy_data(tmp_path)
    (folder / "cards.yaml").write_text("cards: [unclosed", encoding="utf-8")
    bad = _seki("components", "check", str(folder))
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1 and "cards.yaml" in bad.stderr
    assert "Traceback" not in bad.stderr
    missing = _seki("components", "check", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "file not found" in missing.stderr
