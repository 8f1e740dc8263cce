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

from sekigahara_pbem.protocol.component_files import components_hash, load_components
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
    assert star == ["fukushima-cav-a", "fukushima-leader", "ii-naomasa"]
    assert comp.locations["kiyosu"].setup_symbol == "black_star"
    assert comp.locations["kiyosu"].setup_count == 3


def test_5_2_1_one_block_for_every_printed_symbol(comp):
    """Osaka 6 squares, Aizu 3 rounds, the Mori Box 5 triangles; Edo 4 squares, Kiyosu 3
    stars, Kanazawa 4 triangles, Sendai 3 rounds: 14 blocks a side start placed."""
    printed = {loc.setup_symbol: loc.setup_count for loc in comp.locations.values()}
    printed[comp.mori_box_symbol] = 5
    for symbol, count in printed.items():
        if symbol:
            assert sum(1 for b in comp.blocks.values() if b.setup == symbol) == count, symbol
    for side in (ISHIDA, TOKUGAWA):
        assert sum(1 for b in comp.blocks.values() if b.side == side and b.setup) == 14


def test_3_2_printed_faces_protagonists_one_mon_no_plain_one(comp):
    assert comp.blocks["ishida-mitsunari"].mon == comp.blocks["tokugawa-leader"].mon == 1
    plain_ones = [
        b.id for b in comp.blocks.values() if b.mon == 1 and not b.ability and not b.leader
    ]
    assert plain_ones == []
    assert not [b for b in comp.blocks.values() if b.clan == "uesugi" and b.mon == 2]


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


def test_6_3_bid_numbers_follow_the_kind_and_never_tie_across_decks(comp):
    printed = {ISHIDA: {"loyalty": 7, "double": 5, "swords": 3, "plain": 1},
               TOKUGAWA: {"loyalty": 8, "double": 6, "swords": 4, "plain": 2}}  # fmt: skip
    for c in comp.cards.values():
        assert c.bid == printed[c.deck][c.kind], c.id
    gold = {c.bid for c in comp.cards.values() if c.deck == ISHIDA}
    black = {c.bid for c in comp.cards.values() if c.deck == TOKUGAWA}
    assert not gold & black and comp.bid_tie is None


def test_3_3_decks_as_printed(comp):
    counts: dict[tuple, int] = {}
    for c in comp.cards.values():
        counts[(c.clan or "loyalty", c.kind)] = counts.get((c.clan or "loyalty", c.kind), 0) + 1
    for clan, double, swords, plain in (("mori", 1, 5, 10), ("kobayakawa", 1, 5, 8),
                                        ("ukita", 1, 5, 8), ("uesugi", 1, 3, 4),
                                        ("tokugawa", 1, 5, 10), ("fukushima", 1, 4, 7),
                                        ("maeda", 1, 4, 7), ("date", 1, 4, 6)):  # fmt: skip
        assert counts[(clan, "double")] == double
        assert counts[(clan, "swords")] == swords
        assert counts[(clan, "plain")] == plain
    assert len(comp.deck(ISHIDA)) == len(comp.deck(TOKUGAWA)) == 55


def test_6_2_recruitment_track(comp):
    assert comp.recruitment_track == {1: 0, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1}
    assert comp.first_reinforcements == {ISHIDA: 4, TOKUGAWA: 4}  # 5.2.3


def test_6_3_a_set_whose_decks_share_a_number_loads_with_a_tie_rule_only():
    docs = _docs()
    docs["cards"]["cards"][0]["bid"] = 2  # an Ishida card with a Tokugawa number
    with pytest.raises(ComponentError, match="bid_tie"):
        build_components(docs["board"], docs["blocks"], docs["cards"])
    docs["cards"]["bid_tie"] = "black"
    assert build_components(docs["board"], docs["blocks"], docs["cards"]).bid_tie == TOKUGAWA


BREAKAGES = [
    (
        "board",
        lambda d: d["locations"].append(dict(d["locations"][0])),
        "is already the id at board.yaml: locations[0].id",
    ),
    ("board", lambda d: d["roads"].append(["osaka", "atlantis", "road"]), "unknown location"),
    ("board", lambda d: d["roads"].append(["osaka", "kyoto", "road"]), "listed twice"),
    ("board", lambda d: d["locations"][1].update(castle="purple"), "castle"),
    (
        "board",
        lambda d: d["locations"][1].update(random_blocks={"side": "gold", "count": 5}),
        "random_blocks.count",
    ),
    (
        "board",
        lambda d: d.update(roads=[r for r in d["roads"] if "himeji" not in r[:2]]),
        "no road leads to himeji",
    ),
    ("blocks", lambda d: d["blocks"][0].update(mon=5), "mon"),
    ("blocks", lambda d: d["blocks"][0].update(ability="archer"), "ability"),
    ("blocks", lambda d: d["blocks"][0].update(clan="oda"), "unknown clan"),
    ("blocks", lambda d: d["blocks"][0].update(leader=0), "three-dot leader"),
    ("blocks", lambda d: d["blocks"][1].update(setup="purple_hexagon"), "no location"),
    ("cards", lambda d: d["cards"][0].update(bid=8), "bid_tie"),
    ("cards", lambda d: d.update(bid_tie="purple"), "bid_tie"),
    (
        "board",
        lambda d: d["locations"][3]["setup"].update(count=5),
        "printed 5 times but 6 blocks",
    ),
    ("board", lambda d: d["boxes"].update(recruitment={"ishida": 40}), "which holds"),
    ("cards", lambda d: d["cards"][0].update(clan="date"), "no mon"),
    ("cards", lambda d: d["cards"][1].update(kind="joker"), "kind"),
    ("cards", lambda d: d["cards"][1].update(bid="high"), "expected int"),
    ("cards", lambda d: d["cards"][1].update(id="mori-3a"), "the id at blocks.yaml: blocks[51].id"),
]


@pytest.mark.parametrize(("manifest", "breakage", "message"), BREAKAGES)
def test_broken_manifests_are_refused_with_a_path(manifest, breakage, message):
    docs = _docs()
    broken = copy.deepcopy(docs)
    breakage(broken[manifest])
    with pytest.raises(ComponentError) as info:
        build_components(broken["board"], broken["blocks"], broken["cards"])
    assert message in str(info.value)
    assert info.value.where.startswith(f"{manifest}.yaml: ")


def _copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "components"
    shutil.copytree(Path(str(DATA)), target)
    return target


def test_an_owner_can_load_a_corrected_set(tmp_path):
    folder = _copy_data(tmp_path)
    board = folder / "board.yaml"
    board.write_text(
        board.read_text(encoding="utf-8").replace(
            "name: Sekigahara (GMT 2011)", "name: My printed board"
        ),
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


def _shared_map() -> Path | None:
    """The transcription of the printed map beside the project (shared/components), which a
    checkout has and an sdist does not."""
    for root in (Path(__file__).resolve().parents[2], Path("/work")):
        path = root / "shared" / "components" / "map.json"
        if path.is_file():
            return path
    return None


SHARED_MAP = _shared_map()


@pytest.mark.skipif(
    SHARED_MAP is None, reason="shared/components/map.json is not beside the project"
)
def test_4_the_shipped_board_is_the_printed_map_location_by_location(comp):
    """Every location, feature and link of board.yaml against the transcription, so a typo
    in either fails."""
    import json

    printed = json.loads(SHARED_MAP.read_text(encoding="utf-8"))
    colour = {"gold": ISHIDA, "black": TOKUGAWA}
    assert comp.size == tuple(printed["picture_size"])
    assert set(comp.locations) == {loc["id"] for loc in printed["locations"]}
    for p in printed["locations"]:
        loc = comp.locations[p["id"]]
        assert loc.name == p["name"]
        assert loc.pos == (p["x"], p["y"])
        assert loc.resource == p.get("resource", False), loc.id
        assert loc.capital == (colour[p["capital"]] if "capital" in p else None), loc.id
        assert loc.castle == (colour[p["castle"]["colour"]] if "castle" in p else None), loc.id
        assert loc.recruit == tuple(p.get("recruit", ())), loc.id
        rnd = p.get("random_blocks")
        assert loc.random_blocks == ((colour[rnd["colour"]], rnd["count"]) if rnd else None)
        symbols = [(f"{s['colour']}_{s['shape']}", s["count"]) for s in p.get("setup_symbols", [])]
        assert [(loc.setup_symbol, loc.setup_count)] == symbols or (
            not symbols and not loc.setup_symbol
        )
        disks = [d.id for d in comp.disks.values() if d.location == loc.id]
        assert disks == ([p["disk"]] if "disk" in p else []), loc.id
    links = {frozenset((r["a"], r["b"])): r["type"] == "highway" for r in printed["links"]}
    assert comp.roads == links
    assert (len(comp.roads), sum(comp.roads.values())) == (62, 19)
    box = printed["boxes"]
    assert comp.mori_entry == box["mori"]["enters_at"]
    mori = box["mori"]["setup_symbols"][0]
    assert comp.mori_box_symbol == f"{mori['colour']}_{mori['shape']}"
    assert comp.recruitment_track == {int(w): n for w, n in box["recruitment_track"].items()}
    for side in (ISHIDA, TOKUGAWA):
        assert comp.first_reinforcements[side] == box["recruitment"][side]["random_blocks"]["count"]
