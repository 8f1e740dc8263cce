"""What a computer player believes of the enemy's hidden blocks (bot/belief.py): moved by
the events its side saw, fitted to the counts of its views, never ruling out where a
block really is, and sharper than the counts alone; and the search's worlds dealt by it
(rules/shadow.py)."""

from __future__ import annotations

from sekigahara_pbem.bot.belief import Belief
from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.views import redact_event, view
from sekigahara_pbem.rules.vocab import BAG, ELIMINATED, MORI_BOX, RECRUIT, SIDES, other


class _Checked(HeuristicPlayer):
    """The heuristic, with what its belief gave the true place of each hidden enemy
    block at each of its turn files noted (the true state is set before each)."""

    def __init__(self, comp, seed: str, truth: dict) -> None:  # noqa: ANN001
        super().__init__(comp, {}, seed)
        self.truth, self.chances, self.counts = truth, [], []

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        chosen = super().actions(v, offered)
        if self.members is None:
            return chosen
        enemy = other(v["own"]["side"])
        state = self.truth["state"]
        hidden = [
            (b, at)
            for b, at in state["blocks"].items()
            if self.comp.blocks[b].side == enemy and at not in (ELIMINATED, MORI_BOX)
        ]
        for b, at in hidden:
            self.chances.append(self.members.get(at, {}).get(b, 0.0))
            self.counts.append(_count(v, enemy, at) / len(hidden))
        return chosen


def _count(v: dict, side: str, place: str) -> int:
    if place == BAG:
        return v["bags"][side]
    if place == RECRUIT:
        return v["recruit"][side]
    return v["stacks"].get(place, {}).get(side, 0)


def test_the_belief_never_rules_out_where_a_block_is_and_beats_the_counts(comp):
    """Over whole games, at every turn file: each hidden enemy block's true place has a
    chance above zero, and on average a far higher one than the view's counts alone give
    (a block's share of the hidden blocks at its place)."""
    chances: list[float] = []
    counts: list[float] = []
    truth: dict = {}

    def now(state: dict, side: str) -> None:
        truth["state"] = state

    for game in range(2):
        players = {s: _Checked(comp, f"belief-{game}-{s}", truth) for s in SIDES}
        play(comp, f"{game:032x}", players, on_decision=now)
        for p in players.values():
            chances += p.chances
            counts += p.counts
    assert len(chances) > 1000
    assert min(chances) > 0.0
    mean, alone = sum(chances) / len(chances), sum(counts) / len(counts)
    assert mean > 1.5 * alone, (mean, alone)


def test_setup_blocks_are_believed_where_their_symbol_is_printed(comp):
    """5.2.1: a block with a setup symbol starts at the location printed with it, so the
    enemy's protagonist, a leader with a symbol, is known at the start."""
    state, events = setup(comp, f"{1:032x}")
    for side in SIDES:
        belief = Belief(comp, side)
        belief.observe([redact_event(e, side) for e in events])
        members = belief.fit(view(state, comp, side))
        protagonist = comp.protagonist(other(side))
        at = state["blocks"][protagonist]
        assert members[at][protagonist] > 0.9


def _event(**fields) -> dict:  # noqa: ANN003
    return {"rule": "test", **fields}


def test_a_stack_that_sends_part_of_itself_takes_each_block_at_that_share(comp):
    """Two of five blocks leave: each of the five stays with three chances in five."""
    belief = Belief(comp, SIDES[0])
    enemy = other(SIDES[0])
    five = sorted(comp.side_blocks(enemy))[:5]
    for b in five:
        belief.weights[b] = {"edo": 1.0}
    belief.weights = {b: w for b, w in belief.weights.items() if b in five}
    move = {"count": 2, "path": ["utsunomiya"], "force_march": False}
    belief.observe([_event(type="move", side=enemy, **{"from": "edo"}, groups=[move])])
    for b in five:
        assert abs(belief.weights[b]["edo"] - 0.6) < 1e-9
        assert abs(belief.weights[b]["utsunomiya"] - 0.4) < 1e-9


def test_what_the_events_show_is_known(comp):
    """A leader that gave its leadership was at the origin (7.3.4); a muster, a Mōri
    arrival and a deployment name their blocks (7.2, 9.3, 8.2.3); a loss removes one. The
    own side's events and the enemy's own groups are left alone."""
    side = SIDES[0]
    enemy = other(side)
    belief = Belief(comp, side)
    leader = next(b for b in comp.side_blocks(enemy) if comp.blocks[b].leader)
    plain = sorted(b for b in comp.side_blocks(enemy) if not comp.blocks[b].leader)
    move = {"count": 1, "path": ["kiso"], "force_march": False}
    belief.observe(
        [
            _event(
                type="move",
                side=enemy,
                groups=[move],
                leadership=f"leader {leader}",
                **{"from": "gifu"},
            ),  # fmt: skip
            _event(type="muster", side=enemy, to="osaka", blocks=[plain[0]]),
            _event(type="deploy", side=enemy, location="kyoto", blocks=[plain[1]]),
            _event(type="losses", side=enemy, location="kyoto", units=[plain[2]]),
            _event(type="muster", side=side, to="edo", blocks=[plain[3]]),
        ]
    )
    assert set(belief.weights[leader]) <= {"gifu", "kiso"}  # not at its setup place
    assert abs(sum(belief.weights[leader].values()) - 1.0) < 1e-9
    assert belief.weights[plain[0]] == {"osaka": 1.0}
    assert belief.weights[plain[1]] == {"kyoto": 1.0}
    assert plain[2] not in belief.weights
    assert "edo" not in belief.weights[plain[3]]  # an event of the own side moves nothing


def test_the_search_deals_the_enemy_blocks_by_the_belief(comp):
    """The search's worlds, sampled at the start of a game, put the enemy's setup
    blocks where the belief (5.2.1) has them far more often than blind dealing does, and
    every sample shows the side its own view."""
    state, events = setup(comp, f"{2:032x}")
    side = SIDES[0]
    belief = Belief(comp, side)
    belief.observe([redact_event(e, side) for e in events])
    v = view(state, comp, side)
    members = belief.fit(v)
    likely = [(b, at) for at, row in members.items() for b, p in row.items() if p > 0.9]
    likely = [(b, at) for b, at in likely if at not in (BAG, RECRUIT)]
    assert len(likely) >= 10
    believed = blind = 0
    for k in range(20):
        sample = shadow_state(comp, v, {}, rng.new(f"{k:064x}"), members)
        assert view(sample, comp, side) == v
        believed += sum(sample["blocks"][b] == at for b, at in likely)
        dealt = shadow_state(comp, v, {}, rng.new(f"{k:064x}"))
        blind += sum(dealt["blocks"][b] == at for b, at in likely)
    assert believed > 0.8 * 20 * len(likely) > 2 * blind


def test_a_player_shown_the_same_events_gives_the_same_answers(comp):
    """Determinism: the answers depend on the events shown and the views, nothing else."""
    games = [play(comp, f"{3:032x}", {s: HeuristicPlayer(comp, {}, s) for s in SIDES})
             for _ in range(2)]  # fmt: skip
    assert games[0].state == games[1].state
    assert games[0].actions == games[1].actions


def test_a_bot_answering_packets_is_shown_every_packet_of_its_side(tmp_path, comp):
    """Through the real files (`seki demo`, `seki solo`): before it answers a packet, a
    bot is shown the events of its side's packets it has not seen, each once, opened
    with its own key; its belief then never rules out where an enemy block is."""
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.play import inbox
    from sekigahara_pbem.protocol import chain
    from sekigahara_pbem.protocol import game as games
    from sekigahara_pbem.protocol.store import GameDir
    from sekigahara_pbem.referee.demo import Bot, Bots, run_demo

    result = run_demo(tmp_path, "catch-up", "2026-11-30T12:00:00Z", 40, Bots("heuristic"))
    assert not result.refused
    gd = GameDir(result.game_dir)
    definition = games.load(gd)
    referee = read_identity(tmp_path / "keys" / "referee.identity")
    secrets = games.open_secrets(gd, definition, referee)
    last = gd.last_seq()
    state = chain.open_state(definition, secrets, last, gd.sealed(last).read_text())
    for side in SIDES:
        bot = Bot(read_identity(tmp_path / "keys" / f"{side}.identity"), definition, "s",
                  kind="heuristic")  # fmt: skip
        bot.catch_up(gd, last + 1)
        assert bot.seen == last
        bot.catch_up(gd, last + 1)  # nothing shown twice
        player = bot.player
        assert isinstance(player, HeuristicPlayer) and player.seen is not None
        # `seki bot turn` and `seki bot run` read the same from the packets beside theirs
        beside = inbox.shown_before(gd.root / "packets", definition, bot.identity, last + 1)
        assert player.seen == beside
        assert any(e.get("side") == other(side) for e in beside)
        player.fit(packets_view(definition, gd, last, bot))
        members = player.members
        assert members is not None
        enemy = other(side)
        for b, at in state["blocks"].items():
            if comp.blocks[b].side == enemy and at not in (ELIMINATED, MORI_BOX):
                assert members.get(at, {}).get(b, 0.0) > 0.0, (side, b, at)


def packets_view(definition, gd, seq: int, bot) -> dict:  # noqa: ANN001
    from sekigahara_pbem.protocol import packets

    text = gd.packet(seq, bot.side).read_text()
    return packets.open_packet(definition, text, bot.identity, "p").view


def test_events_of_shapes_the_engine_never_writes_are_passed_over(comp):
    """A packet is another's file: an event with a field missing, of the wrong type, or
    naming what the board does not have moves nothing and raises nothing."""
    side = SIDES[0]
    enemy = other(side)
    belief = Belief(comp, side)
    before = {b: dict(w) for b, w in belief.weights.items()}
    odd = [
        "not an event",
        {"type": "move", "side": enemy},
        {"type": "move", "side": enemy, "from": ["edo"], "groups": "all"},
        {"type": "move", "side": enemy, "from": "edo", "groups": [{"path": [[1]], "count": 2}]},
        {"type": "move", "side": enemy, "from": "edo", "groups": [{"path": [], "count": True}]},
        {"type": "move", "side": enemy, "from": "edo", "leadership": "leader nobody"},
        {"type": "muster", "side": enemy, "to": "atlantis", "blocks": sorted(before)[:2]},
        {"type": "deploy", "side": enemy, "location": "edo", "blocks": {"a": 1}},
        {"type": "retreat", "side": enemy, "location": 3, "to": None, "count": "2"},
        {"type": "setup_random", "side": enemy, "location": "edo", "count": -4},
        {"type": "losses", "side": enemy, "units": [None, ["x"]]},
        {"type": "overrun", "side": side, "eliminated": "all"},
        {"type": ["move"], "side": enemy},
    ]
    belief.observe(odd)
    assert belief.weights == before


def test_a_packet_that_does_not_open_is_passed_over(tmp_path):
    """A bot catching up goes on without a packet that is missing or spoiled: the
    belief is a guess, and the game does not stop for it."""
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.protocol import game as games
    from sekigahara_pbem.protocol.store import GameDir
    from sekigahara_pbem.referee.demo import Bot, Bots, run_demo

    result = run_demo(tmp_path, "spoiled", "2026-11-30T12:00:00Z", 8, Bots("heuristic"))
    gd = GameDir(result.game_dir)
    definition = games.load(gd)
    side = SIDES[0]
    gd.packet(2, side).write_text("spoiled")
    gd.packet(3, side).unlink()
    bot = Bot(read_identity(tmp_path / "keys" / f"{side}.identity"), definition, "s",
              kind="heuristic")  # fmt: skip
    bot.catch_up(gd, gd.last_seq())
    assert bot.seen == gd.last_seq() - 1 and isinstance(bot.player, HeuristicPlayer)
