"""The computer players (sekigahara_pbem/bot, docs/bot.md): the engine accepts every
action they send, they decide from their own view alone, the heuristic beats the random
baseline, and `seki bot turn` writes a turn file the referee accepts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sekigahara_pbem.bot import HeuristicPlayer, make_player
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.rules.engine import pending
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.state import clone
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import BAG, SIDES, other

GAMES = 30


def _players(comp, hero: str, against: str, seed: str, plans: bool = False) -> dict:
    kinds = {s: "heuristic" if s == hero else against for s in SIDES}
    return {s: make_player(kinds[s], comp, {}, f"{seed}-{s}", plans) for s in SIDES}


def test_the_engine_accepts_every_action_of_the_heuristic(comp):
    """Over many games against the random baseline (sides alternated; one game in three
    with the heuristic filing battle plans) and a few against itself, every action of
    every turn file applies, and every game ends."""
    wins = 0
    for i in range(GAMES):
        hero = SIDES[i % 2]
        players = _players(comp, hero, "random", f"t{i}", plans=i % 3 == 0)
        game = play(comp, f"{1000 + i:032x}", players)
        assert not game.refused, (i, game.refused[:3])
        assert game.state["result"] is not None
        wins += game.state["result"]["winner"] == hero
    for i in range(3):
        players = _players(comp, "ishida", "heuristic", f"h{i}", plans=i == 0)
        game = play(comp, f"{2000 + i:032x}", players)
        assert not game.refused, (i, game.refused[:3])
        assert game.state["week"] == 7 or game.state["result"]["how"] == "instant"
    assert wins >= 0.9 * GAMES  # bench/bot_strength.py measures it over 200 games


def _hide_differently(comp, state: dict, side: str) -> dict | None:
    """The same game with the enemy's hidden pieces swapped: a block on the map (not in
    the combat under way) trades places with one in its bag, and its hand with its deck."""
    enemy = other(side)
    fight = (state["combat"] or {}).get("fight") or {}
    busy = fight.get("location")
    on_map = sorted(
        b
        for b, w in state["blocks"].items()
        if comp.blocks[b].side == enemy and w in comp.locations and w != busy
    )
    bag = sorted(b for b, w in state["blocks"].items() if comp.blocks[b].side == enemy and w == BAG)
    cards = state["cards"][enemy]
    if not on_map or not bag or not cards["hand"] or len(cards["deck"]) < len(cards["hand"]):
        return None
    other_state = clone(state)
    a, b = on_map[len(on_map) // 2], bag[-1]
    other_state["blocks"][a], other_state["blocks"][b] = BAG, state["blocks"][a]
    n = len(cards["hand"])
    swapped = other_state["cards"][enemy]
    swapped["hand"], swapped["deck"] = list(cards["deck"][:n]), cards["hand"] + cards["deck"][n:]
    return other_state


def test_the_heuristic_decides_from_its_view_alone(comp):
    """Wherever the heuristic decides, the same decision with the enemy's hidden blocks and
    cards dealt differently (views identical) gets the same answer."""
    bot = HeuristicPlayer(comp, {}, "v")
    compared = []

    def watch(state: dict, side: str) -> None:
        twin = _hide_differently(comp, state, side)
        if twin is None or pending(twin) != pending(state):
            return
        mine = view(state, comp, side)
        assert view(twin, comp, side) == mine
        offered = options(state, comp, side)
        assert options(twin, comp, side) == offered
        assert bot.actions(view(twin, comp, side), offered) == bot.actions(mine, offered)
        compared.append(side)

    for i in range(2):
        players = {s: HeuristicPlayer(comp, {}, "v") for s in SIDES}
        play(comp, f"{3000 + i:032x}", players, on_decision=watch)
    assert len(compared) > 50 and set(compared) == set(SIDES)


def seki(home: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SEKI_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_seki_bot_turn_is_accepted_by_the_referee(tmp_path):
    """Real keys and a real game directory: two bot players answer their own packets with
    `seki bot turn` through the bids, the first player and into the first movement phase,
    and the referee accepts every file."""
    homes = {p: tmp_path / p for p in ("ref", "alice", "bob")}
    ok(seki(homes["ref"], "keys", "new", "ref", cwd=tmp_path))
    for name in ("alice", "bob"):
        pub = ok(seki(homes[name], "keys", "new", name, cwd=tmp_path))
        (tmp_path / f"{name}.pub").write_text(pub)
    ok(seki(homes["ref"], "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    for name in ("alice", "bob"):
        ok(seki(homes[name], "join", "g/game.txt", "--key", name, cwd=tmp_path))
    ok(seki(homes["ref"], "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    ok(seki(homes["alice"], "join", "join-g-tokugawa.txt", "--key", "alice", cwd=tmp_path))
    ok(seki(homes["bob"], "join", "join-g-ishida.txt", "--key", "bob", cwd=tmp_path))
    ok(seki(homes["ref"], "adjudicate", "g", "seed-g-ishida.txt", "seed-g-tokugawa.txt",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    player = {"ishida": "alice", "tokugawa": "bob"}
    answered = []
    for _ in range(6):
        seq = max(int(p.name[:6]) for p in (tmp_path / "g" / "packets").iterdir())
        for side, name in player.items():
            packet = f"g/packets/{seq:06d}-{side}.txt"
            out = f"{side}-{seq}.signed.txt"
            done = seki(homes[name], "bot", "turn", packet, "--key", name, "--out", out,
                        "--plans", cwd=tmp_path)  # fmt: skip
            if done.returncode != 0:
                assert "nothing is asked of you" in done.stderr, done.stderr
                continue
            result = ok(seki(homes["ref"], "adjudicate", "g", out, "--key", "ref", cwd=tmp_path))
            assert "REFUSED" not in result
            answered.append((side, (tmp_path / out).read_text()))
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.protocol import game as games
    from sekigahara_pbem.protocol import turns
    from sekigahara_pbem.protocol.store import GameDir

    gd = GameDir(tmp_path / "g")
    definition = games.load(gd)
    secrets = games.open_secrets(gd, definition, read_identity(homes["ref"] / "ref.identity"))
    kinds = set()
    for _, text in answered:
        assert turns.is_sealed(text) and "type:" not in text  # sealed for the referee
        inner = turns.unseal(definition, text, secrets.state_key, "turn")
        kinds |= {a["type"] for a in turns.parse(definition, inner, "turn").actions}
    assert kinds & {"move", "level"} and "plan" in kinds


def test_seki_bot_turn_bad_input_is_one_line(tmp_path):
    (tmp_path / "junk.txt").write_bytes(b"\x00\xff junk")
    for args in (
        ("bot", "turn", "junk.txt", "--key", "nobody"),
        ("bot", "turn", "missing.txt", "--key", "nobody"),
        ("demo", str(tmp_path / "d"), "--bot", "clever"),
    ):
        done = seki(tmp_path / "home", *args, cwd=tmp_path)
        assert done.returncode != 0, args
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, args
        assert len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)


def test_the_demo_with_heuristic_bots_goes_through_the_real_files(tmp_path):
    from sekigahara_pbem.referee.demo import Bots, run_demo

    result = run_demo(tmp_path, "bots", "2026-11-22T12:00:00Z", 40, Bots("heuristic"))
    assert not result.refused
    # new keys each run make a new game, which now and then ends early (18 turn files seen)
    assert result.turn_files == 40 or (result.result is not None and result.turn_files > 0)
