"""What a computer player remembers of the enemy's cards (bot/recall.py): its discard pile
since the pile was last shuffled into a new draw pile (3.3), and the cards it showed to
refute a challenge (8.6.1), exactly as the real game has them; and the search's worlds
dealt by it (rules/shadow.py)."""

from __future__ import annotations

from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.recall import Piles, Recall
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import SIDES, other


class _Checked(HeuristicPlayer):
    """The heuristic, with the enemy's piles as it recalled them at each turn file, beside
    the true ones (the true state is set before each)."""

    def __init__(self, comp, seed: str, truth: dict) -> None:  # noqa: ANN001
        super().__init__(comp, {}, seed)
        self.truth, self.seen_piles = truth, []

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        chosen = super().actions(v, offered)
        piles = self.truth["state"]["cards"][other(v["own"]["side"])]
        self.seen_piles.append((self.piles, set(piles["discard"]), set(piles["hand"])))
        return chosen


def test_the_enemys_discard_pile_is_recalled_exactly_over_whole_games(comp):
    """At every turn file of two whole games, both sides shown their events: the enemy's
    discard pile recalled is the real one, through its reshuffles, and every card
    recalled in its hand is in it; some refutations were seen."""
    truth: dict = {}

    def now(state: dict, side: str) -> None:
        truth["state"] = state

    recalled = []
    for game in range(2):
        players = {s: _Checked(comp, f"recall-{game}-{s}", truth) for s in SIDES}
        play(comp, f"{game:032x}", players, on_decision=now)
        recalled += [seen for p in players.values() for seen in p.seen_piles]
    assert len(recalled) > 200
    for piles, discard, hand in recalled:
        assert piles is not None
        assert piles.discard == discard
        assert piles.hand <= hand
    assert any(piles is not None and piles.hand for piles, _, _ in recalled)


def _event(**fields) -> dict:  # noqa: ANN003
    return {"rule": "test", **fields}


def test_a_reshuffle_empties_the_discard_pile_and_a_play_leaves_the_hand(comp):
    """3.3: a reshuffle makes the discards the new draw pile; a card shown to refute a
    challenge is in the hand until it is seen discarded; the own side's cards and names
    of no card of the enemy's deck are left alone."""
    side = SIDES[0]
    enemy = other(side)
    deck = sorted(comp.deck(enemy))
    recall = Recall(comp, side)
    recall.observe(
        [
            _event(type="discard", side=enemy, cards=deck[:3], why="bid"),
            _event(type="discard", side=side, cards=sorted(comp.deck(side))[:2], why="bid"),
            _event(type="discard", side=enemy, cards=["no-such-card", 7], why="bid"),
            _event(type="challenge", side=side, result="loyal", shown=deck[5], card="x"),
            _event(type="challenge", side=enemy, result="loyal", shown=deck[6], card="x"),
        ]
    )
    assert recall.discarded == set(deck[:3])
    assert recall.shown == {deck[5]}
    recall.observe(
        [
            _event(type="reshuffle", side=enemy, cards=3),
            _event(type="discard", side=enemy, cards=[deck[5], deck[7]], why="played"),
        ]
    )
    assert recall.discarded == {deck[5], deck[7]}
    assert recall.shown == set()


def test_a_memory_that_disagrees_with_the_view_is_not_used(comp):
    """A player shown a game from its middle remembers less than the view counts: it
    judges the enemy's cards by the counts alone."""
    state, _ = setup(comp, f"{4:032x}")
    side = SIDES[0]
    enemy = other(side)
    v = view(state, comp, side)
    recall = Recall(comp, side)
    assert recall.piles(v) == Piles(frozenset(), frozenset())
    recall.observe([_event(type="discard", side=enemy, cards=sorted(comp.deck(enemy))[:1])])
    assert recall.piles(v) is None  # the view counts an empty discard pile


def test_the_search_deals_no_card_recalled_discarded_into_the_enemys_hand(comp):
    """The search's worlds keep the enemy's recalled discards in its discard pile and
    its shown cards in its hand; each sample shows the side its own view."""
    state, _ = setup(comp, f"{5:032x}")
    side = SIDES[0]
    enemy = other(side)
    piles = state["cards"][enemy]
    gone = sorted(piles["deck"])[:6]  # six of its unseen cards discarded, as if seen
    piles["deck"] = [c for c in piles["deck"] if c not in gone]
    piles["discard"] = gone
    v = view(state, comp, side)
    known = Piles(frozenset(gone), frozenset(piles["hand"][:1]))
    blind_hit = 0
    for k in range(20):
        sample = shadow_state(comp, v, {}, rng.new(f"{k:064x}"), None, known)
        assert view(sample, comp, side) == v
        dealt = sample["cards"][enemy]
        assert set(dealt["discard"]) == set(gone)
        assert piles["hand"][0] in dealt["hand"]
        blind = shadow_state(comp, v, {}, rng.new(f"{k:064x}"))["cards"][enemy]
        blind_hit += bool(set(blind["hand"]) & set(gone))
    assert blind_hit > 0  # without the memory, discarded cards come back to its hand
