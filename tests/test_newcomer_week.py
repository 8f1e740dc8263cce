"""Issue 6's newcomer: a whole game week played by hand from the README's commands and the
packets alone. Each decision: `seki view`, `seki turn new` writes the template, the
newcomer copies one of the options listed in it under `actions:`, `seki turn check`,
`seki turn sign --packet`, and the referee's `seki adjudicate`; no file may be refused.

The commands run in-process through the real CLI (click's runner) to keep the test quick;
tests/test_pbem_cli.py runs the same commands as separate processes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import yaml
from click.testing import CliRunner

from sekigahara_pbem.cli import app
from sekigahara_pbem.rules.vocab import SIDES

NAMES = {"ishida": "alice", "tokugawa": "bob"}


class Table:
    def __init__(self, root: Path):
        self.root, self.runner = root, CliRunner()

    def seki(self, who: str, *args: str) -> str:
        result = self.runner.invoke(
            app, list(args), env={"SEKI_HOME": str(self.root / who)}, catch_exceptions=False
        )
        assert result.exit_code == 0, (args, result.output)
        assert "Traceback" not in result.output
        return result.output


def _pick(template: str, seq: int, side: str) -> str:
    """The newcomer's choice: one of the options the template lists, varied by packet."""
    listed = [line[len("#   - ") :] for line in template.splitlines() if line.startswith("#   - ")]
    assert listed, template
    digest = hashlib.sha256(f"{seq}-{side}".encode()).digest()[0]
    return listed[digest % len(listed)]


def test_a_newcomer_plays_week_one_by_hand_without_a_rejection(tmp_path):
    t = Table(tmp_path)
    t.seki("ref", "keys", "new", "ref")
    for name in NAMES.values():
        (tmp_path / f"{name}.pub").write_text(t.seki(name, "keys", "new", name))
    game = tmp_path / "g"
    keys = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    t.seki("ref", "game", "new", str(game), "--key", "ref", *keys)
    joins = [str(tmp_path / f"join-{name}.txt") for name in NAMES.values()]
    for name, path in zip(NAMES.values(), joins, strict=True):
        t.seki(name, "join", str(game / "game.txt"), "--key", name, "--out", path)
    t.seki("ref", "adjudicate", str(game), *joins, "--key", "ref")
    seeds = [str(tmp_path / f"seed-{name}.txt") for name in NAMES.values()]
    for name, path, theirs in zip(NAMES.values(), seeds, joins[::-1], strict=True):
        t.seki(name, "join", theirs, "--key", name, "--out", path)
    t.seki("ref", "adjudicate", str(game), *seeds, "--key", "ref")
    decisions = 0
    while True:
        state = yaml.safe_load((game / "public" / "state.yaml").read_text())
        if state["week"] > 1 or not state["pending"]:
            break
        seq = max(int(p.name[:6]) for p in (game / "records").glob("*.txt"))
        side = sorted({d["side"] for d in state["pending"]})[0]
        name = NAMES[side]
        packet = str(game / "packets" / f"{seq:06d}-{side}.txt")
        shown = t.seki(name, "view", packet, "--key", name)
        assert "YOUR DECISION" in shown
        turn = tmp_path / f"turn-{seq}.yaml"
        t.seki(name, "turn", "new", packet, "--key", name, "--out", str(turn))
        template = turn.read_text()
        turn.write_text(template + "  - " + _pick(template, seq, side) + "\n")
        t.seki(name, "turn", "check", str(turn), "--packet", packet, "--key", name)
        t.seki(name, "turn", "sign", str(turn), "--packet", packet, "--key", name)
        out = t.seki("ref", "adjudicate", str(game), str(turn.with_suffix(".signed.txt")),
                     "--key", "ref")  # fmt: skip
        assert "REFUSED" not in out and f"record {seq + 1}" in out, out
        decisions += 1
        assert decisions < 400
    assert decisions > 5
    assert not (game / "rejected").exists()
    assert set(NAMES) == set(SIDES)
