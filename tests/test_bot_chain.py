"""The loop the bots play a game by (bot/chain.py `play_on`, used by bot/match.py and the
search's rollouts): the first side asked sends its turn file; an action the engine
refuses is noted and the first option played instead; `stop` and `limit` end it."""

from __future__ import annotations

from sekigahara_pbem.bot.chain import play_on
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import pending


def test_a_refused_action_is_replaced_by_the_first_option(comp):
    state, _ = setup(comp, f"{5:032x}")
    sent: list[tuple[str, list[dict]]] = []

    def decide(state: dict, side: str, offered: list[dict]) -> list[dict]:
        sent.append((side, offered))
        return [{"type": "no-such-action"}] if len(sent) == 1 else [offered[-1]]

    played = play_on(comp, state, decide, 3)
    assert played.turn_files == 3 and played.actions == 2
    assert len(played.refused) == 1 and played.refused[0].startswith(f"{sent[0][0]}: ")
    assert pending(played.state)  # three turn files do not end a game


def test_stop_is_asked_before_each_turn_file(comp):
    state, _ = setup(comp, f"{6:032x}")
    asked = []
    played = play_on(comp, state, lambda s, side, o: o[:1], 10, lambda s: asked.append(s) or True)
    assert played.turn_files == 0 and played.state is state and len(asked) == 1
