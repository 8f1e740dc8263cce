"""`seki play` in a two-party game: the report from the side's own copy, and each decision
walked with the same numbered questions as in a referee's game (play/console.py).

The side's copy is exact for its own items, so the questions are those of its decision
kinds' guided dialogues on that copy; one action is built at a time, because the copy
itself goes on after each (twoparty/exchange.py) as far as it knows.
"""

from __future__ import annotations

from collections.abc import Callable

from ..pbem.packets import Packet
from ..reports import render_text
from ..rules.components import Components
from ..rules.views import view
from ..twoparty import knowledge as kn
from . import console
from .session import TurnSession


class OneAction(TurnSession):
    """One decision's action: the session ends when the dialogue completes it."""

    def _finish(self, action: dict) -> None:
        self.done.append((self.step, action, self.step.state))
        self.step = None


def side_view(state: dict, kc: Components, side: str) -> dict:
    """The side's view of its copy, as a packet would hold it: its bag is only counted."""
    v = view(state, kc, side)
    v["own"]["bag"] = []
    return v


def report(game_id: str, n: int, state: dict, kc: Components, side: str, seen: list) -> str:
    """The side's report: its view of its copy and what it saw happen (events that name
    only what it knows)."""
    events = [e for e in seen if not any(map(kn.is_handle, kn.names_in(e)))]
    packet = Packet(n, side, "", side_view(state, kc, side), events, [], None, [])
    return render_text(game_id, packet, kc, guided=True)


def chooser(ask: console.Asker, say: Callable[[str], None]):
    """A chooser for `Party.write`: each decision asked at the terminal (or from a script)."""

    def choose(state: dict, kc: Components, side: str) -> dict:
        session = OneAction(state, kc, side)
        if session.question is None:
            raise console.Stopped("nothing is asked of you now")
        console.run(session, kc, side_view(state, kc, side), ask, say)
        return session.actions[0]

    return choose
