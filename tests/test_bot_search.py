"""The search player (sekigahara_pbem/bot/search.py, docs/bot.md): its samples of the
hidden pieces agree with the view, the engine accepts every action it sends, it decides
from its view alone, it replays from its seed, and `seki bot turn --bot search` writes a
turn file the referee accepts. Budgets are tiny here; bench/bot_strength.py measures it."""

from __future__ import annotations

import os
import time

import pytest
from test_bot import _hide_differently, ok, seki

from sekigahara_pbem.bot import HeuristicPlayer, SearchPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.rounds import WorkerDied
from sekigahara_pbem.bot.search import FILE_STEPS, Shape
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import pending
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import BAG, SIDES, other


def _quick(comp, seed: str, workers: int = 1, rounds: int = 2) -> SearchPlayer:
    """Two rounds over two candidates, one phase ahead: enough to overrule the heuristic
    now and then, cheap enough for a test; in one process unless said (a second one
    answers the same: test_two_processes_answer_as_one)."""
    shape = Shape(width=2, horizon=1, rounds=rounds)
    return SearchPlayer(comp, {}, seed, budget=None, shape=shape, workers=workers)


@pytest.fixture(scope="module")
def decisions() -> list[tuple[dict, str]]:
    """Every decision of a heuristic game: the state, and the side asked."""
    comp = load_components()
    seen: list[tuple[dict, str]] = []
    players = {s: HeuristicPlayer(comp, {}, "p") for s in SIDES}
    play(comp, f"{4000:032x}", players, on_decision=lambda st, side: seen.append((st, side)))
    return seen


def _spread(decisions: list, count: int) -> list[tuple[dict, str]]:
    return decisions[:: max(1, len(decisions) // count)][:count]


def test_samples_agree_with_the_view_and_vary(comp, decisions):
    """Each sample of the hidden pieces has the side's very view (but for the enemy's
    sealed decision, left unmade), deals the enemy's blocks differently, and keeps the
    blocks placed at setup out of the bag (they never return to it)."""
    chooser = rng.new("ab" * 16)
    dealt = set()
    for state, side in _spread(decisions, 12):
        v = view(state, comp, side)
        enemy = other(side)
        for _ in range(3):
            sample = shadow_state(comp, v, state["options"], chooser)
            seen = view(sample, comp, side)
            assert {k: x for k, x in seen.items() if k not in ("sealed", "pending")} == {
                k: x for k, x in v.items() if k not in ("sealed", "pending")
            }
            where = {b: w for b, w in sample["blocks"].items() if comp.blocks[b].side == enemy}
            assert not any(comp.blocks[b].setup and w == BAG for b, w in where.items())
            dealt.add(tuple(sorted(where.items())))
            hand = sample["cards"][enemy]["hand"]
            assert len(hand) == v["hands"][enemy]
    assert len(dealt) > 12


class Watched(SearchPlayer):
    """Notes whether each choice differs from the heuristic's."""

    overruled: list[bool] = []

    def choose(self, v: dict, offered: list[dict], shadow: dict, until: float | None) -> dict:
        mine = super().choose(v, offered, shadow, until)
        self.overruled.append(mine != self.policy.choose(v, offered, shadow))
        return mine


def test_the_engine_accepts_every_action_of_the_search_player(comp):
    """Two games against the heuristic, sides alternated: every action applies, both games
    end, and the search overrules the heuristic's choice somewhere (movement left to the
    heuristic: two whole games of searched movement take minutes; the two-process test
    and the real files below search it)."""
    calm = dict(budget=None, shape=Shape(2, 1, 2), movement=False, workers=1)
    for i in range(2):
        hero = SIDES[i % 2]
        players = {
            s: Watched(comp, {}, f"a{i}", **calm)
            if s == hero
            else HeuristicPlayer(comp, {}, f"b{i}")
            for s in SIDES
        }
        game = play(comp, f"{5000 + i:032x}", players)
        assert not game.refused, (i, game.refused[:3])
        assert game.state["result"] is not None
    assert any(Watched.overruled)


def test_the_search_player_decides_from_its_view_alone(comp, decisions):
    """The same decision with the enemy's hidden blocks and cards dealt differently (views
    identical) gets the same answer."""
    compared = []
    for state, side in _spread(decisions, 40):
        twin = _hide_differently(comp, state, side)
        if twin is None or pending(twin) != pending(state):
            continue
        mine = view(state, comp, side)
        assert view(twin, comp, side) == mine
        offered = options(state, comp, side)
        answer = _quick(comp, "v").actions(view(twin, comp, side), offered)
        assert answer == _quick(comp, "v").actions(mine, offered)
        compared.append(side)
        if len(compared) == 10:
            break
    assert len(compared) == 10 and set(compared) == set(SIDES)


def test_the_search_player_replays_from_its_seed(comp, decisions):
    """A fixed number of rounds and a fixed seed: the same answers, decision by decision;
    the rounds themselves draw from the seed (two seeds sample differently)."""
    for state, side in _spread(decisions, 8):
        v, offered = view(state, comp, side), options(state, comp, side)
        assert _quick(comp, "same").actions(v, offered) == _quick(comp, "same").actions(v, offered)
    state, _ = setup(comp, "cd" * 16)
    v = view(state, comp, "ishida")
    a = shadow_state(comp, v, {}, rng.new("01" * 16))
    b = shadow_state(comp, v, {}, rng.new("02" * 16))
    assert a["blocks"] != b["blocks"] and a["cards"] != b["cards"]


def test_a_time_budget_bounds_a_turn_file(comp, decisions):
    """With a budget (processor seconds per decision) a turn file takes about that long:
    at most FILE_STEPS budgets, and one rollout more."""
    state, side = decisions[len(decisions) // 2]
    bot = SearchPlayer(comp, {}, "t", budget=0.05, workers=1)
    start = time.process_time()
    bot.actions(view(state, comp, side), options(state, comp, side))
    assert time.process_time() - start < FILE_STEPS * 0.05 + 1.0


def test_movement_decisions_take_the_scaled_budget(comp, decisions):
    """`Shape.movement_scale`: a movement decision may think that many budgets (a round
    costs most there), every other decision one; on a clock that ticks a millisecond a
    reading, so the allowances are exact."""
    ticks = iter(range(10**9))
    allowed: dict[str, list[float]] = {}
    shape = Shape(width=2, horizon=1, movement_scale=2.0)
    bot = SearchPlayer(comp, {}, "t", 0.05, shape, clock=lambda: next(ticks) / 1000, workers=1)
    decide = bot.choose

    def choose(v: dict, offered: list[dict], shadow: dict, until: float | None) -> dict:
        assert until is not None
        allowed.setdefault(v["step"], []).append(until - bot.clock())
        return decide(v, offered, shadow, until)

    bot.choose = choose  # type: ignore[method-assign]
    moving = [(s, side) for s, side in decisions if s["step"] == "movement"]
    other_steps = [(s, side) for s, side in decisions if s["step"] != "movement"]
    for state, side in _spread(moving, 3) + _spread(other_steps, 3):
        bot.actions(view(state, comp, side), options(state, comp, side))
    assert max(allowed["movement"]) > 0.05 + 0.01
    assert max(allowed["movement"]) <= 0.1
    assert all(a <= 0.05 for step, seen in allowed.items() if step != "movement" for a in seen)


def test_two_processes_answer_as_one(comp, decisions):
    """With a number of rounds (no budget), the search in two processes (the odd rounds
    played by the second, bot/rounds.py) answers exactly as in one, decision by decision,
    movement searched too: each round's sample depends on the decision and its index
    alone. Closing the player ends its second process."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the search plays in one process")
    one = _quick(comp, "pair", workers=1, rounds=3)
    two = _quick(comp, "pair", workers=2, rounds=3)
    for state, side in _spread(decisions, 6):
        v, offered = view(state, comp, side), options(state, comp, side)
        assert two.actions(v, offered) == one.actions(v, offered)
    assert two.searched == one.searched and {n for _, n in one.searched} == {3}
    process = two._second.process
    assert process.is_alive()
    two.close()
    assert not process.is_alive() and process.exitcode == 0
    assert two._second is None
    two.close()  # twice: nothing to do


def test_a_dead_second_process_is_raised(comp, decisions):
    """A second process that died is a bug, raised as one; the search does not carry on
    alone as if nothing had happened."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the search plays in one process")
    bot = _quick(comp, "dies", workers=2)
    movement = [(st, s) for st, s in decisions if st["step"] == "movement"]
    state, side = movement[len(movement) // 2]
    v, offered = view(state, comp, side), options(state, comp, side)
    bot.actions(v, offered)
    bot._second.process.kill()
    bot._second.process.join()
    with pytest.raises(WorkerDied, match="died"):
        bot.actions(v, offered)
    bot.close()


def test_seki_bot_turn_with_the_search_bot_is_accepted_by_the_referee(tmp_path):
    """Real keys and a real game directory: both sides answer their packets with `seki bot
    turn --bot search` through the bids, the first player and into the first movement
    phase, and the referee accepts every file."""
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
    for _ in range(3):
        seq = max(int(p.name[:6]) for p in (tmp_path / "g" / "packets").iterdir())
        for side, name in player.items():
            packet = f"g/packets/{seq:06d}-{side}.txt"
            out = f"{side}-{seq}.signed.txt"
            done = seki(homes[name], "bot", "turn", packet, "--key", name, "--out", out,
                        "--bot", "search", "--budget", "0.1", cwd=tmp_path)  # fmt: skip
            if done.returncode != 0:
                assert "nothing is asked of you" in done.stderr, done.stderr
                continue
            result = ok(seki(homes["ref"], "adjudicate", "g", out, "--key", "ref", cwd=tmp_path))
            assert "REFUSED" not in result
            answered.append(side)
    assert set(answered) == set(SIDES) and len(answered) >= 3
    done = seki(homes["alice"], "bot", "turn", "g/packets/000001-ishida.txt", "--key", "alice",
                "--bot", "search", "--plans", cwd=tmp_path)  # fmt: skip
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1


def test_the_demo_with_search_bots_goes_through_the_real_files(tmp_path):
    from sekigahara_pbem.referee.demo import Bots, run_demo

    result = run_demo(tmp_path, "s", "2026-11-22T12:00:00Z", 8, Bots("search", budget=0.05))
    assert not result.refused
    assert result.turn_files == 8


def test_the_heuristic_choice_stands_unless_the_rounds_clearly_beat_it():
    """Gains over the heuristic's choice (candidate 0) are paired round by round: a gain
    lost in the noise, too small, or from a single round does not overrule it."""
    from sekigahara_pbem.bot.search import _pick

    assert _pick([[0.0, 2.0, 1.0], [1.0, 3.0, 2.5], [0.5, 2.0, 1.0]]) == 1
    assert _pick([[0.0, 5.0], [1.0, -3.0], [0.0, 4.0]]) == 0  # noisy
    assert _pick([[0.0, 0.1], [1.0, 1.1], [0.0, 0.1]]) == 0  # too small
    assert _pick([[0.0, 9.0]]) == 0  # one round
    assert _pick([]) == 0
