"""Golden playthroughs (STYLE.md 13, as OpenSpiel keeps them): fixed random games whose
every step — the action, its events as the public sees them, the public view, and each
side's view and legal options — is stored under tests/golden/ and replayed here, so a
change anywhere in the engine that alters play shows up as a failing step with its diff.

Regenerate after a deliberate change of the rules or of a view's format, and read the
diff before committing it:

    python tests/test_golden.py
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.views import redact_event, view
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.testing.random_player import playout

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (11, 22, 33)


def steps(comp, seed: int) -> list[dict]:
    """Every step of the game of `seed`, as the golden file stores it."""
    out: list[dict] = []

    def keep(before, after, side, action, events):
        out.append(
            {
                "n": len(out),
                "side": side,
                "action": action,
                "events": [redact_event(e, None) for e in events],
                "public": view(after, comp, None),
                "views": {s: view(after, comp, s) for s in SIDES},
                "options": {s: options(after, comp, s) for s in SIDES},
            }
        )

    playout(comp, seed, on_step=keep)
    return out


def path(seed: int) -> Path:
    return GOLDEN / f"playthrough-{seed}.jsonl.gz"


def write(comp) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for seed in SEEDS:
        lines = "".join(
            json.dumps(s, sort_keys=True, ensure_ascii=False) + "\n" for s in steps(comp, seed)
        )
        path(seed).write_bytes(gzip.compress(lines.encode("utf-8"), mtime=0))
        print(f"wrote {path(seed)}")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_golden_playthrough_replays_step_by_step(comp, seed):
    stored = [json.loads(line) for line in gzip.decompress(path(seed).read_bytes()).splitlines()]
    now = json.loads(json.dumps(steps(comp, seed)))  # the same JSON types as stored
    for old, new in zip(stored, now, strict=False):
        for key in old:
            assert new[key] == old[key], f"game {seed}, step {old['n']}: {key} differs"
    assert len(now) == len(stored), f"game {seed}: {len(now)} steps, {len(stored)} stored"


def test_every_kind_of_decision_is_in_a_golden_playthrough():
    """A meta-test: the stored games between them ask every kind of decision."""
    from sekigahara_pbem.rules.decisions import KINDS

    asked = set()
    for seed in SEEDS:
        for line in gzip.decompress(path(seed).read_bytes()).splitlines():
            asked |= {d["decision"] for d in json.loads(line)["public"]["pending"]}
    assert asked == set(KINDS)


if __name__ == "__main__":
    write(load_components())
    sys.exit(0)
