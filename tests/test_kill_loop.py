"""Kill safety (issue 19): `seki adjudicate` killed with its whole process group (as Ctrl-C,
an OOM kill or a service stop does, git child included) at random moments, turn after turn.
After every kill: the last record on disk is complete, the turn file sent again is accepted
once (or refused as already answered), a third copy is refused, the git tree is clean and
the chain verifies (run more with SEKI_KILLS=N)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import chain, game, joins
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.rules.vocab import SIDES

NOW = "2026-11-22T12:00:00Z"
KILLS = int(os.environ.get("SEKI_KILLS", "12"))

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")


def _adjudicate(home, root, turn, kill_after: float | None) -> subprocess.CompletedProcess | None:
    command = [sys.executable, "-m", "sekigahara_pbem", "adjudicate", str(root), str(turn),
               "--key", "ref"]  # fmt: skip
    env = {**os.environ, "SEKI_HOME": str(home)}
    child = subprocess.Popen(command, env=env, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    if kill_after is None:
        out, err = child.communicate(timeout=120)
        return subprocess.CompletedProcess(command, child.returncode, out, err)
    time.sleep(kill_after)
    with contextlib.suppress(ProcessLookupError):  # it had finished
        os.killpg(child.pid, signal.SIGKILL)
    child.communicate(timeout=60)
    return None


@pytest.mark.slow
def test_adjudication_killed_at_random_moments_in_a_loop(tmp_path):
    people = {n: generate(n) for n in ("ref", "alice", "bob")}
    players = {"ishida": people["alice"], "tokugawa": people["bob"]}
    home = tmp_path / "home"
    write_identity(home, people["ref"])
    root = tmp_path / "g"
    definition = game.create(root, "g", people["ref"], {s: players[s].public for s in SIDES},
                             components_hash(), {}, NOW)  # fmt: skip
    for name, text in joins.opening(definition, players):
        referee.adjudicate(root, people["ref"], [(name, text.encode())], NOW)
    gd = GameDir(root)
    bots = {s: Bot(players[s], definition, f"kill-{s}") for s in SIDES}
    chance = random.Random(19)
    start = time.monotonic()
    assert _adjudicate(home, root, tmp_path / "missing.txt", None).returncode != 0
    full = time.monotonic() - start  # about one run's length: interpreter, imports, git
    landed = [0, 0]  # kills before the record was in place, and after
    for kill in range(KILLS):
        seq = gd.last_seq()
        record = chain.read_record(gd, definition, seq)
        side = sorted({d["side"] for d in record.body["pending"]})[0]
        turn = tmp_path / f"turn-{kill}.txt"
        turn.write_text(bots[side].answer(gd.packet(seq, side).read_text(), "p"))

        _adjudicate(home, root, turn, chance.uniform(0.3, 2.5) * full)
        after = gd.last_seq()
        assert after in (seq, seq + 1)
        landed[after - seq] += 1
        chain.read_record(gd, definition, after)  # complete and signed

        again = _adjudicate(home, root, turn, None)
        assert again.returncode in (0, 1), again.stderr
        assert gd.last_seq() == seq + 1, again.stdout + again.stderr
        third = _adjudicate(home, root, turn, None)
        assert "REFUSED" in third.stdout and gd.last_seq() == seq + 1

        status = subprocess.run(["git", "status", "--porcelain"], cwd=root,
                                capture_output=True, text=True)  # fmt: skip
        assert status.stdout == "", status.stdout
        assert verify.verify(root).records == seq + 1
    print(f"{landed[0]} kills before the record was in place, {landed[1]} after")
    assert landed[0], "no kill landed before the step was complete: the test tested nothing"
