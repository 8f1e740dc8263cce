"""bench/blunders.py's counters (issue 39) read from the actions a game applies: a lone
loss counts as "for nothing" unless a Resource Location its block claimed that week is
still its side's when control next counts (6.2: the reinforcement step; 2.2: the end)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import yaml

from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.vocab import ELIMINATED, ISHIDA, TOKUGAWA

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
from blunders import Tally  # noqa: E402 - bench/ is not a package

POSITION = """
week: 3
step: movement
first: ishida
blocks:
  saku: [uesugi-3a]
  osaka: [ishida-mitsunari]
  {origin}: [tokugawa-2a, tokugawa-2b, tokugawa-2c, tokugawa-2d]
  hakone: [tokugawa-leader]
control: {{takasaki: tokugawa}}
hands:
  ishida: [ukita-1]
  tokugawa: [tokugawa-1]
"""
FOUR = ["tokugawa-2a", "tokugawa-2b", "tokugawa-2c", "tokugawa-2d"]


def _after(state: dict, **changes: dict) -> dict:
    """`state` with some places' entries changed (blocks, control)."""
    new = copy.deepcopy(state)
    for key, entries in changes.items():
        new[key].update(entries)
    return new


def _raid(comp, origin: str, path: list[str]) -> dict:
    """Uesugi's block walks from Saku through Takasaki (Tokugawa's) to Oshi, claiming
    Takasaki (4.2); four Tokugawa blocks from `origin` along `path` overrun it at Oshi
    (7.4.1); the week ends (6.2). Ishida's counts."""
    tally = Tally(comp)
    start = build_position(comp, yaml.safe_load(POSITION.format(origin=origin)))
    raid = {"from": "saku", "groups": [{"blocks": ["uesugi-3a"], "path": ["takasaki", "oshi"]}]}
    claimed = _after(start, blocks={"uesugi-3a": "oshi"}, control={"takasaki": ISHIDA})
    tally.action(start, ISHIDA, {"type": "move", **raid}, claimed)
    took = {loc: TOKUGAWA for loc in path if comp.locations[loc].resource}
    overrun = _after(
        claimed, blocks={"uesugi-3a": ELIMINATED, **dict.fromkeys(FOUR, "oshi")}, control=took
    )
    strike = {"from": origin, "groups": [{"blocks": FOUR, "path": path}]}
    tally.action(claimed, TOKUGAWA, {"type": "move", **strike}, overrun)
    counted = _after(overrun)
    counted["week"] += 1
    tally.action(overrun, ISHIDA, {"type": "discard", "cards": []}, counted)
    return tally.finish()[ISHIDA]


def test_a_raid_whose_claim_is_taken_back_before_the_count_is_a_loss_for_nothing(comp):
    """The four march from Shibukawa through Takasaki, and claim it back on the way."""
    counts = _raid(comp, "shibukawa", ["takasaki", "oshi"])
    assert counts["lone losses"] == 1 and counts["lone for nothing"] == 1


def test_a_raid_whose_claim_holds_at_the_count_gained_something(comp):
    """The four come from Edo: Takasaki is still Ishida's when the week ends."""
    counts = _raid(comp, "edo", ["oshi"])
    assert counts["lone losses"] == 1 and counts["lone for nothing"] == 0
