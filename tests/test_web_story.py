"""The story on the page's map (issue 30): in a referee's game `seki play --web` draws
the events since the player's last turn (the opponent's moves, retreats, battles) on the
page's map, as the HTML report does, and lists them in words as the text report does
under "Since your last turn"."""

from __future__ import annotations

import queue
import threading

from test_web_turn import _session

from sekigahara_pbem.reports.events import describe
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.options import listing
from sekigahara_pbem.rules.views import redact_event
from sekigahara_pbem.rules.vocab import other
from sekigahara_pbem.web.moment import story
from sekigahara_pbem.web.turn import Board


def _after_a_move(comp) -> tuple[dict, str, list]:
    """A random legal game up to where a side is asked something after the other side
    moved a stack: the state, that side, and what it saw happen since it last acted."""
    state, _ = setup(comp, "ab" * 16)
    chooser = rng.new(f"{7:032x}")
    seen: dict[str, list] = {}
    for _ in range(3000):
        decisions = pending(state)
        for d in decisions:
            if any(e.get("type") == "move" for e in seen.get(d["side"], [])):
                return state, d["side"], seen[d["side"]]
        decider = decisions[rng.below(chooser, len(decisions))]["side"]
        acts = listing(state, comp, decider)
        state, events = apply(state, comp, decider, acts[rng.below(chooser, len(acts))])
        reader = other(decider)
        seen[reader] = seen.get(reader, []) + [redact_event(e, reader) for e in events]
        seen[decider] = []
    raise AssertionError("no move in this game")


class Served:
    """A turn answered on the page (web/turn.Board) with a story, in a thread as the
    command runs it."""

    def __init__(self, session, comp, v: dict, told: list):
        urls: queue.Queue[str] = queue.Queue()
        self.raised: BaseException | None = None

        def run() -> None:
            try:
                with Board(title="t", story=story(told, comp, v), open_browser=False,
                           on_ready=urls.put) as board:  # fmt: skip
                    board.answer(session, v)
                    board.finish(["Signed."])
            except BaseException as exc:  # the test reads what the thread raised
                self.raised = exc

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        self.url = urls.get(timeout=10)


def test_the_opponents_move_is_drawn_and_told_on_the_page(browser, comp):
    """Before any action of the turn, the page's map has the arrow of the other side's
    move, and the story's lines are the report's, under the record's number."""
    state, side, told = _after_a_move(comp)
    session, v = _session(comp, state, side)
    served = Served(session, comp, v, told=[(12, told)])
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(served.url)
        page.wait_for_selector("#story li")
        assert page.locator("#board svg polyline.arrow").count() >= 1  # no action yet
        own = {b: loc for loc, bs in v["own"]["blocks"].items() for b in bs}
        lines = page.locator("#story li").all_inner_texts()
        assert lines == [describe(e, comp, own) for e in told]
        assert "12" in page.locator("#story h3").inner_text()
        page.click("#tools button >> nth=1")  # Stop
        page.wait_for_selector(".done")
    finally:
        page.close()
    served.thread.join(timeout=10)
    assert not served.thread.is_alive() and served.raised is not None  # Stopped
