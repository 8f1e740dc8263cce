"""`seki play DIR --web` in a two-party game (issue 30): a record of several actions is
answered on one page in a real Chromium, one server and one tab for the whole record,
each decision's question picked up without a reload, then the record signed on the page.
It holds the same actions as the terminal's record (play/two_party.chooser, the path of
`--choose`) from the same answers; Stop on the page writes nothing."""

from __future__ import annotations

import queue
import shutil
import threading
from pathlib import Path

import pytest

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.play import console
from sekigahara_pbem.play import two_party as ui
from sekigahara_pbem.protocol.component_files import carry, component_set
from sekigahara_pbem.rules.decisions import Question
from sekigahara_pbem.rules.engine import pending
from sekigahara_pbem.rules.vocab import ISHIDA, SIDES, other
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty.demo import Clock
from sekigahara_pbem.twoparty.match import player_chooser, take_turns
from sekigahara_pbem.twoparty.side import Side


def _movement(side: Side) -> bool:
    """This side's own Movement Phase, its level not chosen yet: a record of several
    actions (the level, stack moves, the end of the phase)."""
    state = side.load().copy()
    phase = state["phase"]
    asked = any(d["side"] == side.side for d in pending(state))
    return asked and phase is not None and phase["level"] is None and state["active"] == side.side


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[dict, dict, str, Clock]:
    """Two bots' two-party game through the files, up to a side's Movement Phase: the
    keys, the sides, the side whose record is due, and the clock."""
    root = tmp_path_factory.mktemp("two-party-web")
    carried = component_set(None)
    comp = carried.components
    keys = {s: generate(s) for s in SIDES}
    publics = {s: k.public for s, k in keys.items()}
    text = files.make_game("web-2p", carried.hash, {}, publics, keys[ISHIDA])
    definition = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (root / s).mkdir()
        (root / s / "game.txt").write_text(text, encoding="utf-8")
        carry(root / s, carried)
        sides[s] = Side(root / s, definition, keys[s], comp)
    bots = {s: player_chooser(make_player("heuristic", comp, {}, f"web-{s}")) for s in SIDES}
    clock = Clock()
    due: list[str] = []

    def over(s: str) -> bool:
        if len(sides[s].records()) > 2 and _movement(sides[s]):
            due.append(s)
        return bool(due)

    take_turns(
        lambda s: sides[s].join(clock.now()),
        lambda s: sides[s].turn(bots[s], clock.now()),
        lambda reader, record: sides[reader].receive(record, "mail", clock.now()),
        over,
    )
    return keys, sides, due[0], clock


def _copy(side: Side, keys: dict, where: Path) -> Side:
    """Another copy of the side's directory, to play the same record a second way."""
    shutil.copytree(side.root, where)
    return Side(where, side.game, keys[side.side], side.comp)


class Served:
    """`play.two_party.on_the_board` running in a thread as the command runs it: the URLs
    it said, and how it ended (None once the record is written, else what it raised)."""

    def __init__(self, side: Side, now: str):
        self.urls: queue.Queue[str] = queue.Queue()
        self.raised: BaseException | None = None
        self.actions: list[dict] = []
        self.thread = threading.Thread(target=self._run, args=(side, now), daemon=True)
        self.thread.start()
        self.url = self.urls.get(timeout=30)

    def _run(self, side: Side, now: str) -> None:
        try:
            ui.on_the_board(side, side.load(), now, on_ready=self.urls.put, open_browser=False)
        except BaseException as exc:  # the test reads what the thread raised
            self.raised = exc

    def ended(self) -> BaseException | None:
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()
        return self.raised


def _pick(q: dict, moves: list[int]) -> list[int]:
    """A player's answer to the page's question (its JSON): a level with stack moves, two
    stack moves by the first choices shown, then the end of the phase; for a question of
    many, as few as asked, the first ones."""
    if q["multi"]:  # none where none will do: a discard to draw would end the record
        n = q["pick"] if isinstance(q["pick"], int) else 0 if q["pick"] == "any" else 1
        return list(range(n))
    words = [c["label"] for c in q["choices"]]
    for level in ("limited", "minimal"):
        if any(w.startswith(level) for w in words):
            return [next(i for i, w in enumerate(words) if w.startswith(level))]
    if moves[0] < 2 and any("stack" in w for w in words):
        moves[0] += 1
        return [next(i for i, w in enumerate(words) if "stack" in w)]
    if any("level" in w for w in words):
        return [next(i for i, w in enumerate(words) if "level" in w)]
    if any("end the Movement" in w for w in words):
        return [next(i for i, w in enumerate(words) if "end the Movement" in w)]
    return [0]


def _click(page, q: dict, picks: list[int]) -> None:
    """Answer as a player does: a place on the map where the choice has one, else its
    button; ticks then OK for a question of many."""
    if q["multi"]:
        for c in q["choices"]:
            tick = page.locator(f"#choice-{c['i']} input")
            if tick.is_checked() != (c["i"] in picks):
                tick.click()
        page.click("#ask button.primary")
        return
    choice = q["choices"][picks[0]]
    same = [c for c in q["choices"] if c["place"] and c["place"] == choice["place"]]
    if len(same) == 1:
        page.click(f'circle.target[data-loc="{choice["place"]}"]')
    else:
        page.click(f"#choice-{picks[0]}")


def _answer_on_the_page(page, url: str) -> tuple[list[list[int]], int]:
    """Every question of the record answered by clicks, on the page loaded once; the
    answers (indices, question by question) and how many actions the record listed."""
    page.goto(url)
    answers: list[list[int]] = []
    moves = [0]
    for _ in range(200):
        page.wait_for_selector("#ask p.prompt")
        now = page.evaluate("() => fetch('state').then((r) => r.json())")
        if now.get("record"):
            listed = len(now["turn"])
            assert page.locator("#ask li").count() == listed
            page.click("#ask button.primary")  # Sign
            page.wait_for_selector("p.done")
            return answers, listed
        q = now["question"]
        picks = _pick(q, moves)
        with page.expect_response(lambda r: r.request.method == "POST"):
            _click(page, q, picks)
        answers.append(picks)
        page.wait_for_function(f"() => document.body.dataset.seq > {now['seq']}")
    raise AssertionError("the record never came to be signed")


def _terminal(side: Side, answers: list[list[int]], now: str) -> list[dict]:
    """The record the terminal writes from the same answers (as `--choose` types them:
    each answer the numbers the terminal shows for the chosen choices); its actions."""
    given = iter(answers)
    confirmed: list[list[dict]] = []

    def ask(prompt: str, question: Question) -> str:
        if question is console.CONFIRM:
            return ""
        shown = console.numbers(question)
        return " ".join(str(shown[i]) for i in next(given))

    confirm = ui.confirmer(side.load().kc, side.side, ask, lambda line: None)  # as the command

    def keep(actions: list[dict], state: dict) -> None:
        confirmed.append(actions)
        confirm(actions, state)

    side.turn(ui.chooser(ask, lambda line: None), now, keep)
    assert next(given, None) is None
    return confirmed[0]


def test_a_record_of_several_actions_is_answered_on_one_page(game, browser, tmp_path, monkeypatch):
    """One URL said once, one tab loaded once: the level, two stack moves and the end of
    the phase clicked, each next question coming without a reload; the record listed
    and signed on the page is the terminal's from the same answers, and the other side
    takes it in."""
    keys, sides, due, clock = game
    side = sides[due]
    web, terminal = _copy(side, keys, tmp_path / "web"), _copy(side, keys, tmp_path / "term")
    now = clock.now()
    confirmed: list[list[dict]] = []
    original = ui.OnTheBoard.confirm

    def keep(self, actions: list[dict], state: dict) -> None:
        confirmed.append(actions)
        original(self, actions, state)

    monkeypatch.setattr(ui.OnTheBoard, "confirm", keep)
    before = len(web.records())
    served = Served(web, now)
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's
    loads: list[str] = []
    problems: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    page.on("request", lambda r: r.url.startswith(served.url) or problems.append(r.url))
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        answers, listed = _answer_on_the_page(page, served.url)
        assert loads == [served.url] and page.url == served.url
    finally:
        page.close()
    assert served.ended() is None and served.urls.empty() and not problems
    assert len(web.records()) == before + 1
    actions = confirmed[0]
    assert len(actions) == listed >= 3, actions
    assert sum(a["type"] == "move" for a in actions) == 2
    assert actions == _terminal(terminal, answers, now)
    opponent = _copy(sides[other(due)], keys, tmp_path / "other")
    record = web.records()[-1]
    opponent.receive(record.read_text(encoding="utf-8"), record.name, clock.now())


def test_stop_on_the_page_writes_no_record(game, browser, tmp_path):
    """Stop in the middle of the record (after its first action): Stopped, nothing
    written, and the server gone."""
    keys, sides, due, clock = game
    web = _copy(sides[due], keys, tmp_path / "web")
    before = len(web.records())
    served = Served(web, clock.now())
    page = browser.new_page()
    try:
        page.goto(served.url)
        page.wait_for_selector("#ask p.prompt")
        now = page.evaluate("() => fetch('state').then((r) => r.json())")
        with page.expect_response(lambda r: r.request.method == "POST"):
            _click(page, now["question"], _pick(now["question"], [2]))
        page.wait_for_function(f"() => document.body.dataset.seq > {now['seq']}")
        page.wait_for_selector("#ask p.prompt")
        page.click("#tools button >> nth=-1")  # Stop
        page.wait_for_selector("p.done")
    finally:
        page.close()
    assert isinstance(served.ended(), console.Stopped)
    assert len(web.records()) == before
