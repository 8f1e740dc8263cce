"""What a computer player remembers of the enemy's cards (bot/recall.py): its discard pile
since the pile was last shuffled into a new draw pile (3.3), exactly as the real game has
it; and whether the enemy may still hold a Loyalty Challenge (8.6.1)."""

from __future__ import annotations

from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.recall import Recall
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import SIDES, other


class _Checked(HeuristicPlayer):
    """The heuristic, with the enemy's discard pile as it recalled it at each turn file,
    beside the true one (the true state is set before each)."""

    def __init__(self, comp, seed: str, truth: dict) -> None:  # noqa: ANN001
        super().__init__(comp, {}, seed)
        self.truth = truth
        self.recalled: list = []

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        chosen = super().actions(v, offered)
        piles = self.truth["state"]["cards"][other(v["own"]["side"])]
        self.recalled.append((self.enemy_discard, set(piles["discard"])))
        return chosen


def test_the_enemys_discard_pile_is_recalled_exactly_over_whole_games(comp):
    """At every turn file of two whole games, both sides shown their events: the enemy's
    discard pile recalled is the real one, through its reshuffles."""
    truth: dict = {}

    def now(state: dict, side: str) -> None:
        truth["state"] = state

    recalled = []
    for game in range(2):
        players = {s: _Checked(comp, f"recall-{game}-{s}", truth) for s in SIDES}
        play(comp, f"{game:032x}", players, on_decision=now)
        recalled += [seen for p in players.values() for seen in p.recalled]
    assert len(recalled) > 200
    for remembered, discard in recalled:
        assert remembered == discard
    assert any(len(discard) > 5 for _, discard in recalled)


def _event(**fields) -> dict:  # noqa: ANN003
    return {"rule": "test", **fields}


def test_a_reshuffle_empties_the_discard_pile(comp):
    """3.3: a reshuffle makes the discards the new draw pile; the own side's cards, its
    reshuffles and what names no card of the enemy's deck are left alone."""
    side = SIDES[0]
    enemy = other(side)
    deck = sorted(comp.deck(enemy))
    recall = Recall(comp, side)
    recall.observe(
        [
            _event(type="discard", side=enemy, cards=deck[:3], why="bid"),
            _event(type="discard", side=side, cards=sorted(comp.deck(side))[:2], why="bid"),
            _event(type="discard", side=enemy, cards=["no-such-card", 7, [deck[4]]], why="bid"),
            _event(type="discard", side=enemy, cards=deck[4], why="bid"),
            _event(type="reshuffle", side=side, cards=3),
        ]
    )
    assert recall.discarded == set(deck[:3])
    recall.observe(
        [
            _event(type="reshuffle", side=enemy, cards=3),
            _event(type="discard", side=enemy, cards=[deck[5], deck[7]], why="played"),
        ]
    )
    assert recall.discarded == {deck[5], deck[7]}


def test_a_memory_that_disagrees_with_the_view_is_not_used(comp):
    """A player shown a game from its middle remembers less than the view counts: it
    judges the enemy's cards by the counts alone."""
    state, _ = setup(comp, f"{4:032x}")
    side = SIDES[0]
    enemy = other(side)
    v = view(state, comp, side)
    recall = Recall(comp, side)
    assert recall.discard(v) == frozenset()
    recall.observe([_event(type="discard", side=enemy, cards=sorted(comp.deck(enemy))[:1])])
    assert recall.discard(v) is None  # the view counts an empty discard pile


def test_no_challenge_is_feared_once_the_enemys_are_all_spent(comp):
    """8.6.1: with every Loyalty Challenge of the enemy's deck recalled in its discard
    pile, none can come, nor from an empty hand; with one unseen, or no memory at all,
    one may."""
    from sekigahara_pbem.bot.knowledge import Knowledge

    state, _ = setup(comp, f"{5:032x}")
    side = SIDES[0]
    enemy = other(side)
    v = view(state, comp, side)
    loyal = frozenset(c for c in comp.deck(enemy) if comp.cards[c].kind == "loyalty")
    assert Knowledge(comp, v, side).enemy_may_challenge()
    assert Knowledge(comp, v, side, None, loyal).enemy_may_challenge() is False
    assert Knowledge(comp, v, side, None, loyal - {min(loyal)}).enemy_may_challenge()
    empty = {**v, "hands": {**v["hands"], enemy: 0}}
    assert Knowledge(comp, empty, side).enemy_may_challenge() is False
