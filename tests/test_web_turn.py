"""`seki play --web` (issue 30): a turn answered by clicking in a real Chromium builds
exactly the actions the terminal builds from the same answers (play.console.script on a
fresh session): a whole movement turn on the map (blocks left behind, dropped off and
split off by clicking their tiles, a force march), its path drawn on the map as it is
built; losses chosen by clicking blocks; a deployment and a Loyalty Challenge, a discard
and a bid from the hand. The local server refuses a wrong token, a foreign Host header
and a POST from another origin, changes nothing on a GET, and is gone once the turn is
signed or stopped.

SEKI_WEB_SCREENSHOTS=1 writes the page's pictures to docs/web-desktop.png and
docs/web-phone.png (else to the test's temporary directory)."""

from __future__ import annotations

import contextvars
import http.client
import itertools
import json
import os
import queue
import threading
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import pytest
from overrun_turn import overrun_turn
from webdoor import door, enter, file_of

from sekigahara_pbem import i18n
from sekigahara_pbem.play import console, labels
from sekigahara_pbem.play.session import TurnSession
from sekigahara_pbem.reports.svgmap import positions
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.control import castle_counts, resource_counts
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.decisions import Choice, Question
from sekigahara_pbem.rules.decisions.stack_move import DROP, SPLIT, STOP
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.options import listing
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.victory import points
from sekigahara_pbem.rules.views import redact_event, view
from sekigahara_pbem.rules.vocab import BAG, LAST_WEEK, RECRUIT
from sekigahara_pbem.web import targets
from sekigahara_pbem.web.app import page_words
from sekigahara_pbem.web.moment import story
from sekigahara_pbem.web.turn import Board

DOCS = Path(__file__).parent.parent / "docs"
Decide = Callable[[Question], list[int]]


def _position(comp, wanted: Callable[[dict], str | None], seed: int) -> tuple[dict, str]:
    """The first state of a random legal game (setup "ab"*16) where `wanted` names the
    side whose decision the test needs."""
    state, _ = setup(comp, "ab" * 16)
    chooser = rng.new(f"{seed:032x}")
    for _ in range(3000):
        side = wanted(state)
        if side is not None:
            return state, side
        decisions = pending(state)
        decider = decisions[rng.below(chooser, len(decisions))]["side"]
        acts = listing(state, comp, decider)
        state, _ = apply(state, comp, decider, acts[rng.below(chooser, len(acts))])
    raise AssertionError("no such position in this game")


def _session(comp, state: dict, side: str) -> tuple[TurnSession, dict]:
    """The player's session as `seki play` builds it: on the shadow of its own view."""
    v = view(state, comp, side)
    return TurnSession(shadow_state(comp, v, state["options"]), comp, side), v


def _terminal(comp, state: dict, side: str, script: str) -> list[dict]:
    """The actions the terminal builds from these answers (`seki play --choose`)."""
    session, v = _session(comp, state, side)
    console.run(session, comp, v, console.script(script), lambda line: None)
    assert console.confirm(session, comp, v, console.script(""), lambda line: None)
    return session.actions


class Served:
    """A turn answered on the page (web/turn.Board) in a thread, as the command runs it:
    the address it says, the page's URL behind it, and how it ended (None once signed
    and the page told so, else the exception it raised)."""

    def __init__(self, session: TurnSession, comp, v: dict, told: list | None = None):
        self.urls: queue.Queue[str] = queue.Queue()
        self.told = told or []
        self.raised: BaseException | None = None
        # the thread runs in the test's context, as the command runs the turn in its own:
        # the language set with i18n.using included
        context = contextvars.copy_context()
        self.thread = threading.Thread(
            target=context.run, args=(self._run, session, comp, v), daemon=True
        )
        self.thread.start()
        self.address = self.urls.get(timeout=10)  # the forwarding file (webdoor.py)
        origin, self.port, _ = door(self.address)
        self.url = f"{origin}/"

    def _run(self, session: TurnSession, comp, v: dict) -> None:
        try:
            with Board(
                title="Sekigahara, test", report_html="<p>report</p>",
                story=story(self.told, comp, v), open_browser=False, on_ready=self.urls.put,
            ) as board:  # fmt: skip
                board.answer(session, v)
                board.finish(["Signed."])
        except BaseException as exc:  # the test reads what the thread raised
            self.raised = exc

    def ended(self) -> BaseException | None:
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        return self.raised


def _click(page, comp, question: Question, picks: list[int], clicks: list[str]) -> None:
    """Answer on the page as a player would: a place on the map, else a card of the hand
    (when it names one choice alone), else the choice's button; a question that picks many
    by clicking (cards in the hand, blocks on their tiles, the rest ticked in the list) and
    OK."""

    def naming(card: str) -> list[Choice]:
        return [c for c in question.choices if targets.card(c, comp) == card]

    if question.pick == "one":
        choice = question.choices[picks[0]]
        where, card = targets.place(question, choice, comp), targets.card(choice, comp)
        if where is not None:
            ring = page.locator(f'circle.target[data-loc="{where.loc}"]')
            assert ("march" in ring.get_attribute("class")) == where.march
            ring.click()
            clicks.append("march" if where.march else "map")
        elif card is not None and len(naming(card)) == 1:
            page.click(f'#hand [data-card="{card}"]')
            clicks.append("card")
        else:
            page.click(f"#choice-{picks[0]}")
            clicks.append("button")
        return
    default = question.default if isinstance(question.default, list) else []
    for i, choice in enumerate(question.choices):
        if (i in picks) == (choice.value in default):
            continue
        card = targets.card(choice, comp)
        if card is not None:
            page.click(f'#hand [data-card="{card}"]')
            clicks.append("card")
        elif targets.unit(choice, comp) is not None:
            page.click(f"#choice-{i}.tile")
            clicks.append("tile")
        else:
            page.click(f"#choice-{i} input")
            clicks.append("tick")
    page.click("#ask button.primary")


def _play(page, served: Served, session: TurnSession, comp, decide: Decide) -> tuple[str, list]:
    """Answer every question by clicks, then sign: the same answers as a --choose
    script, and what was clicked."""
    page.goto(served.address)
    answers: list[str] = []
    clicks: list[str] = []
    seq = 0
    while True:
        page.wait_for_selector(f'body[data-seq="{seq}"]')
        question = session.question
        if question is None:
            break
        picks = decide(question)
        _click(page, comp, question, picks, clicks)
        shown = console.numbers(question)  # as the terminal shows them (a stack keeps its own)
        answers.append("+".join(str(shown[i]) for i in picks))
        seq += 1
    page.click("#ask button.primary")  # Sign
    page.wait_for_selector(".done")
    assert served.ended() is None
    return ",".join(answers), clicks


def _check(browser, comp, state: dict, side: str, decide: Decide) -> list:
    """Clicks and the terminal build the same turn, on a page that asks nothing of any
    other server and logs no error; the actions, and what was clicked. A decider that
    looks at the page (`Watched`) is given it."""
    session, v = _session(comp, state, side)
    served = Served(session, comp, v)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems: list[str] = []
    page.on(
        "request",
        lambda r: r.url.startswith((served.url, served.address)) or problems.append(r.url),
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    if isinstance(decide, Watched):
        decide.page = page
    try:
        script, clicks = _play(page, served, session, comp, decide)
    finally:
        page.close()
    assert session.actions == _terminal(comp, state, side, script), script
    assert not problems, problems
    return session.actions, clicks


class Builder:
    """A movement turn of two stack moves, built as a player builds one on the page: the
    highest level, its cards clicked in the hand; the first stack of three blocks or more
    leaves its last block behind, goes a step, drops a block off there and goes on, by a
    force march where the rules offer one, up to three steps; the next stack of two or
    more goes a step and splits a block off, the rest stopping there and the split block
    going on; then the end of the phase."""

    def __init__(self, comp):
        self.comp, self.moves = comp, 0
        self.dropped = self.marched = False
        self.split: list | None = None

    def __call__(self, q: Question) -> list[int]:
        values = [c.value for c in q.choices]
        if q.key == "movement":
            if "level" in values:
                return [values.index("level")]
            if self.moves < 2 and "move" in values:
                self.moves += 1
                return [values.index("move")]
            return [values.index("end_movement")]
        if q.key == "level":
            return [values.index("total")]
        if q.key == "level_cards":
            return list(range(q.pick))
        if q.key == "stack":
            least = 3 if self.moves == 1 else 2
            return [next(i for i, c in enumerate(q.choices) if c.note["blocks"] >= least)]
        if q.key == "blocks":
            return list(range(len(values) - (self.moves == 1)))
        if q.key == "leader":
            return [len(values) - 1]
        if q.key == "split":
            self.split = [values[0]]
        if q.key == "step":
            return [self._step(q, values)]
        return [0]  # the block dropped off or split off, the force march's card

    def _step(self, q: Question, values: list) -> int:
        path = q.context["path"]
        walks = [i for i, v in enumerate(values) if isinstance(v, str) and v in self.comp.locations]
        marches = [i for i, v in enumerate(values) if isinstance(v, tuple)]
        if not path and walks:
            return walks[0]
        if self.moves == 1:
            if not self.dropped and DROP in values:
                self.dropped = True
                return values.index(DROP)
            if marches and not self.marched and len(path) < 3:
                self.marched = True
                return marches[0]
            return walks[0] if walks and len(path) < 3 else values.index(STOP)
        if self.split is None and SPLIT in values:
            return values.index(SPLIT)
        if q.context["blocks"] == self.split and len(path) == 1 and walks:
            return walks[0]
        return values.index(STOP)


class Watched:
    """A decider that also reads, at each question, what the page draws of the stack move
    being built (`drawn`), and takes the page's pictures at the first step whose path has
    two places, at a desktop's size and a phone's, into `shots`: on the phone the page
    does not scroll sideways and the map comes right under the question, above the
    hand."""

    def __init__(self, decide: Decide, shots: Path):
        self.decide, self.shots, self.page = decide, shots, None
        self.seen: list[tuple[Question, list[int], dict]] = []
        self.taken = False

    def __call__(self, q: Question) -> list[int]:
        if not self.taken and q.key == "step" and len(q.context["path"]) >= 2:
            self.taken = True
            for name, size in (("desktop", (1280, 900)), ("phone", (390, 844))):
                self.page.set_viewport_size({"width": size[0], "height": size[1]})
                path = self.shots / f"web-{name}.png"
                self.page.screenshot(path=str(path))
                assert path.stat().st_size < 400_000
            assert self.page.evaluate("() => document.documentElement.scrollWidth") <= 390
            top = {k: self.page.locator(k).bounding_box()["y"] for k in ("#tools", ".map", "#hand")}
            assert top["#tools"] < top[".map"] < top["#hand"], top
            self.page.set_viewport_size({"width": 1280, "height": 1000})
        picks = self.decide(q)
        self.seen.append((q, picks, drawn(self.page)))
        return picks


def drawn(page) -> dict:
    """What the page's map draws of the move being built: its lines by class, each as
    [its places, its points], and the places ringed as where its column stands."""
    return page.evaluate(
        """() => {
          const out = { lines: {}, here: [] };
          document.querySelectorAll("#board svg .overlay polyline.path").forEach((l) => {
            const kind = l.getAttribute("class");
            (out.lines[kind] = out.lines[kind] || []).push(
              [l.getAttribute("data-locs").split(" "), l.getAttribute("points")]);
          });
          document.querySelectorAll("#board svg .overlay circle.here")
            .forEach((c) => out.here.push(c.getAttribute("data-loc")));
          return out;
        }"""
    )


def _on_the_roads(comp, lines: dict) -> dict[str, list[tuple[str, ...]]]:
    """The places of each line drawn, by class, once checked: the line goes through
    their centres on the map, each step along a road."""
    at = positions(comp)
    out: dict[str, list[tuple[str, ...]]] = {}
    for kind, found in lines.items():
        for locs, drawn in found:
            xy = [tuple(float(v) for v in p.split(",")) for p in drawn.split()]
            assert xy == [at[loc] for loc in locs], (locs, drawn)
            assert all(b in comp.adjacent[a] for a, b in itertools.pairwise(locs)), locs
            out.setdefault(kind, []).append(tuple(locs))
    return out


def _by_move(seen: list) -> tuple[list, list]:
    """The questions asked outside any stack move, and those of each stack move (from its
    stack's question to the answer that completes it)."""
    outside, moves, current = [], [], None
    for record in seen:
        key = record[0].key
        if key == "stack":
            current = []
            moves.append(current)
        elif key == "movement":
            current = None
        (outside if current is None else current).append(record)
    return outside, moves


def _movement(state: dict) -> str | None:
    phase = state["phase"]
    return state["active"] if phase and phase["level"] is None else None


def test_a_movement_turn_built_by_clicks_draws_its_path_and_is_the_terminals_turn(
    browser, comp, tmp_path
):
    """Two stack moves built by clicks alone: a block left behind, one dropped off on the
    way and one split off, each by a click on its tile; a force march on a dashed ring;
    the level's cards clicked in the hand. At each question of a move the map draws its
    path from the stack's place through each place chosen, along the roads, rings where
    its column stands and dashes the step a force march is about to take; at the answer
    that completes a move its lines are exactly the move's groups' paths. The turn is the
    one the same answers build at the terminal. The page's pictures are taken mid-move."""
    state, side = _position(comp, _movement, 0)
    builder = Builder(comp)
    shots = DOCS if os.environ.get("SEKI_WEB_SCREENSHOTS") == "1" else tmp_path
    watched = Watched(builder, shots)
    actions, clicks = _check(browser, comp, state, side, watched)
    moves = [a for a in actions if a["type"] == "move"]
    assert len(moves) == 2 and builder.dropped and builder.marched and builder.split
    assert clicks.count("march") == 1 and clicks.count("map") >= 8 and "card" in clicks
    assert clicks.count("tile") == 3  # the block left behind, the one dropped, the one split
    assert watched.taken
    outside, asked = _by_move(watched.seen)
    assert not any(seen["lines"] for _q, _p, seen in outside)
    for move, records in zip(moves, asked, strict=True):
        (q, picks, seen), *rest = records
        origin = q.choices[picks[0]].value
        assert origin == move["from"] and seen["lines"] == {}
        path, at, marching = [], origin, None
        for q, picks, seen in rest:
            lines = _on_the_roads(comp, seen["lines"])
            if q.key == "step":
                path, at = list(q.context["path"]), q.context["at"]
            assert lines.get("path now", []) == ([(origin, *path)] if path else [])
            assert seen["here"] == [at]
            if q.key == "march_card":
                assert lines["path now march"] == [(at, marching)]
            answer = q.choices[picks[0]].value
            marching = answer[0] if q.key == "step" and isinstance(answer, tuple) else None
        last = {*lines.get("path now", []), *lines.get("path done", [])}
        assert last == {(move["from"], *g["path"]) for g in move["groups"]}, last
    dropped, marched = moves[0]["groups"]
    assert len(dropped["blocks"]) == 1 and "force_march" in marched
    assert dropped["path"] == marched["path"][: len(dropped["path"])]
    stayed, went = moves[1]["groups"]
    assert len(went["blocks"]) == 1 and went["path"][: len(stayed["path"])] == stayed["path"]


def _asked(kind: str, holds: Callable[[dict, str], bool] = lambda state, side: True):
    """A position's test: the side asked this kind of decision, where `holds`."""

    def wanted(state: dict) -> str | None:
        for d in pending(state):
            if d["decision"] == kind and holds(state, d["side"]):
                return d["side"]
        return None

    return wanted


def _first_with_card(q: Question) -> list[int]:
    """The first whole action that plays a card, else the last choice (finish, decline)."""
    carded = [
        i for i, c in enumerate(q.choices) if isinstance(c.value, dict) and c.value.get("card")
    ]
    return [carded[0] if carded else len(q.choices) - 1]


def test_a_bid_and_a_discard_are_clicked_in_the_hand(browser, comp):
    """6.3: the bid is the card clicked; 6.2: the discard is the cards clicked, then OK."""
    state, _ = setup(comp, "ab" * 16)
    actions, clicks = _check(browser, comp, state, "ishida", lambda q: [len(q.choices) - 1])
    assert actions == [{"type": "bid", "card": sorted(state["cards"]["ishida"]["hand"])[-1]}]
    assert clicks == ["card"]
    state, side = _position(comp, _asked("discard"), 0)
    actions, clicks = _check(browser, comp, state, side, lambda q: list(range(q.pick)))
    assert actions[0]["type"] == "discard" and clicks == ["card"] * len(actions[0]["cards"])


def test_the_page_speaks_the_readers_language(browser, comp):
    """A player who reads Hungarian (seki play --web --lang hu) gets the page in Hungarian:
    the question and its choices, the page's own words, <html lang>. They are worded on
    the server's thread, which runs in the command's language (it read English before)."""
    state, _ = setup(comp, "ab" * 16)
    with i18n.using("hu"):
        session, v = _session(comp, state, "ishida")
        question = session.question
        prompt = labels.prompt(question, comp)
        choices = [labels.label(c, question, comp, v, "ishida") for c in question.choices]
        words = page_words()
        served = Served(session, comp, v)
    assert words["undo"] != "Undo" and prompt != labels.prompt(question, comp)
    page = browser.new_page()
    try:
        page.goto(served.address)
        page.wait_for_selector("#ask p.prompt")
        assert page.evaluate("() => document.documentElement.lang") == "hu"
        assert page.inner_text("#ask p.prompt") == prompt
        assert page.inner_text("#choice-0") == choices[0]
        assert words["undo"] in page.inner_text("#tools") and words["stop"] in page.inner_text(
            "#tools"
        )
        page.click(f"#tools button:has-text('{words['stop']}')")
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert isinstance(served.ended(), console.Stopped)


def test_a_deployment_and_a_loyalty_challenge_are_clicked(browser, comp):
    """8.2: a deployment with a card, chosen among the page's choices; 8.6: the Loyalty
    Challenge against a deployment is the challenge card clicked in the hand."""

    def loyal(state: dict, side: str) -> bool:
        return any(comp.cards[c].kind == "loyalty" for c in state["cards"][side]["hand"])

    def carded(state: dict, side: str) -> bool:
        return sum(bool(a.get("card")) for a in listing(state, comp, side)) >= 3

    state, side = _position(comp, _asked("deploy", carded), 0)
    actions, _ = _check(browser, comp, state, side, _first_with_card)
    assert actions[0]["type"] == "deploy" and actions[0]["card"]
    state, side = _position(comp, _asked("challenge", loyal), 0)
    actions, clicks = _check(browser, comp, state, side, _first_with_card)
    assert actions[0]["type"] == "challenge" and clicks == ["card"]


def test_losses_are_chosen_by_clicking_blocks_and_a_phone_shows_them_whole(browser, comp):
    """8.7.2: the unit lost is clicked on its tile; the count says how many are chosen
    and OK waits for exactly as many as are owed; each tile is a checkbox named by its
    block, so the keyboard ticks it too (Space). At a phone's width (390 px) the tiles fit
    the page, which does not scroll sideways. The turn is the one the terminal builds."""

    def choice(state: dict, side: str) -> bool:
        return len(listing(state, comp, side)) > 1

    state, side = _position(comp, _asked("losses", choice), 4)
    session, v = _session(comp, state, side)
    q = session.question
    assert q is not None and q.key == "losses" and len(q.choices) > q.pick == 1
    served = Served(session, comp, v)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    last = len(q.choices) - 1
    try:
        page.goto(served.address)
        page.wait_for_selector("#ask .tile")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        for i in range(len(q.choices)):
            box = page.locator(f"#choice-{i}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        ok = page.locator("#ok")

        def chosen(n: int) -> bool:
            return page.inner_text("#chosen") == page_words()["chosen"].format(n=n)

        assert ok.is_disabled() and chosen(0)
        assert page.get_by_text("Choose one, then OK.").is_visible()  # as the terminal says
        # the block itself, on the map, answers as its tile does
        i = next(i for i, c in enumerate(q.choices) if c.value in comp.blocks)
        block = page.locator(f'#board g.block[data-block="{q.choices[i].value}"]')
        block.click()
        assert chosen(1) and "picked" in block.get_attribute("class")
        assert page.locator(f"#choice-{i} input").is_checked()
        block.click()
        assert chosen(0) and "picked" not in block.get_attribute("class")
        page.click(f"#choice-{last}.tile")
        assert ok.is_enabled() and chosen(1)
        page.click("#choice-0.tile")
        assert ok.is_disabled() and chosen(2)
        page.get_by_role("checkbox", name=str(q.choices[0].value)).focus()
        page.keyboard.press("Space")
        assert ok.is_enabled() and chosen(1)
        ok.click()
        page.wait_for_selector('body[data-seq="1"]')
        assert session.question is None
        # the Sign screen lists the turn once (issue 41: "your turn so far" beside it too)
        assert page.locator("#turn-box").is_hidden()
        assert page.locator("#ask ol li").count() == len(session.actions) == 1
        page.click("#ask button.primary")  # Sign
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert served.ended() is None
    assert session.actions == _terminal(comp, state, side, str(console.numbers(q)[last]))
    assert session.actions[0]["units"][-1] == q.choices[last].value


def _request(served: Served, method: str, path: str, headers: dict, body: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    data = None if body is None else json.dumps(body)
    conn.request(method, path, body=data, headers={"Content-Type": "application/json", **headers})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def test_the_server_answers_only_the_page_and_is_gone_once_stopped(comp):
    """Without the cookie the file's key buys (wrong, or none), with a key used already,
    a Host header naming another host (DNS rebinding), a POST from another origin: 403,
    and the turn goes on. A GET changes nothing. Stop ends the turn (Stopped: nothing is
    written) and the server with it, and the forwarding file is gone."""
    state, _ = setup(comp, "ab" * 16)
    session, v = _session(comp, state, "ishida")
    served = Served(session, comp, v)
    host = {"Host": f"127.0.0.1:{served.port}"}
    assert _request(served, "GET", "/state", host) == 403
    key = door(served.address)[2]
    cookie = {**host, **enter(served.address)}
    assert _request(served, "GET", key, host) == 403  # once only
    assert _request(served, "GET", "/enter?key=", host) == 403
    assert _request(served, "GET", "/state", cookie) == 200
    assert _request(served, "GET", "/state", {**cookie, "Host": f"localhost:{served.port}"}) == 200
    assert _request(served, "GET", "/report", cookie) == 200
    name, value = cookie["Cookie"].split("=", 1)
    wrong = value[:-1] + ("x" if value[-1] != "x" else "y")
    assert _request(served, "GET", "/state", {**host, "Cookie": f"{name}={wrong}"}) == 403
    evil_host = {**cookie, "Host": f"evil.example:{served.port}"}
    assert _request(served, "GET", "/state", evil_host) == 403
    assert _request(served, "GET", "/state", {**cookie, "Host": "127.0.0.1:1"}) == 403
    evil = {**cookie, "Origin": "http://evil.example"}
    assert _request(served, "POST", "/stop", evil, {}) == 403
    own = {"Origin": f"http://127.0.0.1:{served.port}"}
    assert _request(served, "POST", "/stop", {**host, **own}, {}) == 403
    assert _request(served, "GET", "/stop", cookie) == 405
    assert _request(served, "POST", "/answer", cookie, {"seq": 0, "picks": [99]}) == 422
    assert _request(served, "POST", "/answer", cookie, {"seq": 5, "picks": [0]}) == 409
    assert _request(served, "POST", "/answer", cookie, {"seq": 0, "picks": [0], "x": 1}) == 400
    assert _request(served, "POST", "/answer", cookie, {"seq": True, "picks": [0]}) == 400
    assert served.thread.is_alive() and session.actions == [] and session.question is not None
    assert _request(served, "POST", "/stop", {**cookie, **own}, {}) == 200
    assert isinstance(served.ended(), console.Stopped)
    with pytest.raises(ConnectionRefusedError):
        _request(served, "GET", "/state", cookie)
    assert not file_of(served.address).exists()


def test_the_places_and_cards_that_answer_a_choice(comp):
    """targets.py: a step is its location (dashed when only a force march gets there,
    7.3.3), stopping is where the column is, a declaration its location; a card picked
    alone or a whole action's card is that card; a block or a disk is its tile; a word of
    the dialogue is none of these."""
    step = Question(
        "step",
        (Choice("edo"), Choice(("oshi", True)), Choice(STOP), Choice(SPLIT)),
        context={"at": "mito", "blocks": ["a", "b"], "path": ["mito"]},
    )
    places = [targets.place(step, c, comp) for c in step.choices]
    assert places == [("edo", False), ("oshi", True), ("mito", False), None]
    declare = Question("declare", (Choice({"type": "declare", "location": "gifu"}),))
    assert targets.place(declare, declare.choices[0], comp) == ("gifu", False)
    retreat = Question("retreat_to", (Choice("kiso"),), context={"at": "gifu"})
    assert targets.place(retreat, retreat.choices[0], comp) == ("kiso", False)
    card = next(iter(comp.cards))
    bid = Choice({"type": "bid", "card": card})
    assert targets.card(bid, comp) == targets.card(Choice(card), comp) == card
    assert targets.card(Choice({"type": "finish"}), comp) is None
    assert targets.place(Question("level", (Choice("total"),)), Choice("total"), comp) is None
    block, disk = next(iter(comp.blocks)), next(iter(comp.disks))
    assert [targets.unit(Choice(u), comp) for u in (block, disk)] == [block, disk]
    assert targets.unit(Choice(card), comp) is targets.unit(Choice(SPLIT), comp) is None


def test_undo_takes_back_an_answer_and_stop_writes_nothing(browser, comp):
    """Undo on the page takes back the last answer, as `u` does; Stop ends the turn with
    nothing to sign (Stopped, as `q`), and the page says so."""
    state, _ = setup(comp, "ab" * 16)
    session, v = _session(comp, state, "ishida")
    served = Served(session, comp, v)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(served.address)
        card = sorted(state["cards"]["ishida"]["hand"])[0]
        page.click(f'#hand [data-card="{card}"]')
        page.wait_for_selector('body[data-seq="1"]')
        assert session.actions == [{"type": "bid", "card": card}] and session.question is None
        page.click("#tools button >> nth=0")  # Undo
        page.wait_for_selector('body[data-seq="2"]')
        assert session.actions == [] and session.question is not None
        page.click("#tools button >> nth=1")  # Stop
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert isinstance(served.ended(), console.Stopped)


GONE = "seki is no longer running"


@contextmanager
def _bid(browser, comp):  # noqa: ANN202 - the turn, its page and a card to bid
    """Ishida's bid served (web/turn.Board in a thread), its page open, and the card the
    test bids; the page closed on leaving."""
    state, _ = setup(comp, "ab" * 16)
    session, v = _session(comp, state, "ishida")
    served = Served(session, comp, v)
    page = browser.new_page()
    try:
        page.goto(served.address)
        page.wait_for_selector("#ask p.prompt")
        yield served, page, sorted(state["cards"]["ishida"]["hand"])[0]
    finally:
        page.close()


def test_a_click_once_seki_is_gone_says_so(browser, comp):
    """The command ended before the page saw how (another tab stopped the turn; Ctrl-C at
    the terminal): a click on the page finds nothing listening, and the page says seki
    is no longer running instead of doing nothing."""
    with _bid(browser, comp) as (served, page, card):
        (cookie,) = page.context.cookies()
        other_tab = {
            "Host": f"127.0.0.1:{served.port}",
            "Cookie": f"{cookie['name']}={cookie['value']}",
            "Origin": f"http://127.0.0.1:{served.port}",
        }
        assert _request(served, "POST", "/stop", other_tab, {}) == 200
        assert isinstance(served.ended(), console.Stopped)
        page.click(f'#hand [data-card="{card}"]')
        page.wait_for_selector("p.gone")
        assert GONE in page.inner_text("main")


def test_a_page_waiting_on_a_server_it_cannot_reach_says_seki_is_gone(browser, comp):
    """After Sign the page waits for what comes next; when its looks find nothing
    listening (here its requests are cut, as when another tab saw the end first and the
    command left), it says seki is no longer running instead of waiting on."""
    with _bid(browser, comp) as (served, page, card):
        page.click(f'#hand [data-card="{card}"]')
        page.wait_for_selector('body[data-seq="1"]')
        page.route("**/state", lambda route: route.abort())
        page.click("#ask button.primary")  # Sign
        page.wait_for_selector("p.gone")
        assert GONE in page.inner_text("main")
    assert served.ended() is None  # signed: the command went on, and left


@contextmanager
def _stopped(browser, served: Served, **page_options):  # noqa: ANN202 - a page
    """The served turn's page, opened; on leaving, the turn stopped on it (Stop: nothing
    written) and the page closed."""
    page = browser.new_page(**page_options)
    try:
        page.goto(served.address)
        yield page
        page.click("#tools button >> nth=1")  # Stop
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert isinstance(served.ended(), console.Stopped)


def _counts(page) -> dict[str, list[int]]:
    """The panel's table: each side's hand, deck, discards, bag and Recruitment Box."""
    rows = page.eval_on_selector_all(
        "#situation tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))"
    )
    return {row[0]: [int(x) for x in row[1:]] for row in rows[1:]}


def test_the_state_of_the_game_is_beside_the_map(browser, comp):
    """Issue 41 (3): beside the map, the week and turn, the victory points as the rules
    count them (2.2), and each side's hand, deck, discards, bag and Recruitment Box (the
    opponent's hand size decides a Loyalty Challenge, 8.6) and the castles and resources
    each side holds (4.2, 4.3), as the turn so far leaves them: a bid's card stays in the
    hand, face down, until both bids are opened (6.3). They were only in the terminal."""
    state, _ = setup(comp, "ab" * 16)
    session, v = _session(comp, state, "ishida")
    with _stopped(browser, Served(session, comp, v)) as page:
        page.wait_for_selector("#situation table")
        text = page.inner_text("#situation")
        assert f"Week 1 of {LAST_WEEK}, turn A" in text
        score = points(state, comp)
        assert f"Victory points: Ishida {score['ishida']}, Tokugawa {score['tokugawa']}" in text
        for name, held in (
            ("Castles (2 points each)", castle_counts(state, comp)),
            ("Resource locations (1 point each)", resource_counts(state, comp)),
        ):
            assert f"{name}: Ishida {held['ishida']}, Tokugawa {held['tokugawa']}" in text
        piles = {
            name: [
                len(state["cards"][side]["hand"]), len(state["cards"][side]["deck"]),
                len(state["cards"][side]["discard"]),
                *(
                    sum(at == box and comp.blocks[b].side == side
                        for b, at in state["blocks"].items())
                    for box in (BAG, RECRUIT)
                ),
            ]
            for side, name in (("ishida", "Ishida"), ("tokugawa", "Tokugawa"))
        }  # fmt: skip
        assert _counts(page) == piles
        page.click(f'#hand [data-card="{sorted(state["cards"]["ishida"]["hand"])[0]}"]')
        page.wait_for_selector('body[data-seq="1"]')
        assert _counts(page) == piles


def test_no_card_the_player_has_not_drawn_is_shown(browser, comp):
    """A discard at the hand limit (6.2) is followed by the week's draws, which only the
    referee makes: the page shows the hand and the counts as they stand before them, the
    discard in the turn, and says why. (Old code: the Sign screen showed a hand of seven cards
    drawn from the shadow's made-up deck, none of them the player's.)"""
    state, side = _position(comp, _asked("discard"), 0)
    session, v = _session(comp, state, side)
    with _stopped(browser, Served(session, comp, v)) as page:
        page.wait_for_selector("#situation table")
        before = _counts(page)
        question = session.question
        _click(page, comp, question, list(range(question.pick)), [])
        page.wait_for_selector('body[data-seq="1"]')
        assert session.question is None and session.actions[0]["type"] == "discard"
        shown = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")
        assert set(shown) == set(state["cards"][side]["hand"])
        assert _counts(page) == before
        assert "as they stood before your last answer" in page.inner_text("#ask p.unseen")


def test_on_a_phone_the_map_comes_before_the_story(browser, comp):
    """Issue 41 (6): on a phone the page is one column; a question not answered on the
    map had the map under the whole story since the player's last turn. The map now
    comes under the question, its tools, the hand and the turn so far, and the game at a
    glance and the story under the map."""
    state, events = setup(comp, "ab" * 16)
    session, v = _session(comp, state, "ishida")
    served = Served(session, comp, v, told=[(1, [redact_event(e, "ishida") for e in events])])
    with _stopped(browser, served, viewport={"width": 390, "height": 844}) as page:
        page.wait_for_selector("#story li")
        top = {
            name: page.eval_on_selector(name, "e => e.getBoundingClientRect().top")
            for name in ("#ask", "#hand-box", "section.map", "#situation-box", "#story-box")
        }
        assert top["#ask"] < top["#hand-box"] < top["section.map"]
        assert top["section.map"] < top["#situation-box"] < top["#story-box"]


@pytest.mark.parametrize("width", [1280, 390])
def test_7_2_a_place_that_answers_at_the_maps_edge_is_scrolled_into_view(browser, comp, width):
    """The map is wider than its frame on a laptop and on a phone: a question about a
    place at its east edge (a Date muster goes to Sendai, 7.2), with no column on the map,
    scrolls the map to the place that answers, which is then clicked."""
    spec = {
        "week": 2, "turn": "A", "step": "movement", "first": "tokugawa", "active": "tokugawa",
        "blocks": {"recruit": ["date-3a", "date-3b"]},
        "hands": {"tokugawa": ["date-swords-1", "date-swords-2"]},
    }  # fmt: skip
    state = build_position(comp, spec)
    level = {"type": "level", "level": "total", "cards": ["date-swords-1", "date-swords-2"]}
    state, _ = apply(state, comp, "tokugawa", level)
    session = TurnSession(state, comp, "tokugawa")
    for answer in ("muster", "A", "date"):
        session.answer(answer)
    assert session.question.key == "muster_to" and session.question.choices == (Choice("sendai"),)
    served = Served(session, comp, view(state, comp, "tokugawa"))
    target = '#board .overlay circle.target[data-loc="sendai"]'
    page = browser.new_page(viewport={"width": width, "height": 844})
    try:
        page.goto(served.address)
        page.wait_for_selector(target)
        frame = page.locator("#board .board-frame").bounding_box()
        assert (
            page.evaluate("() => document.querySelector('#board .board-frame').scrollWidth")
            > (frame["width"])
        )  # the map does not fit: it scrolls
        ring = page.locator(target).bounding_box()
        assert frame["x"] <= ring["x"] and ring["x"] + ring["width"] <= frame["x"] + frame["width"]
        # its name is drawn again over the ring (issue 41: the rings hid names, Kuwana's)
        assert page.evaluate(
            """() => {
              const layer = document.querySelector('#board .overlay');
              const ring = layer.querySelector('circle.target[data-loc="sendai"]');
              const name = [...layer.querySelectorAll('text.label')]
                .find((t) => t.textContent === 'Sendai');
              return !!name && !!(ring.compareDocumentPosition(name)
                & Node.DOCUMENT_POSITION_FOLLOWING);
            }"""
        )
        page.click(target)
        page.wait_for_selector('body[data-seq="1"]')
    finally:
        page.close()
    assert session.question.key == "muster_blocks"  # Sendai taken: which blocks come there


def test_7_4_the_sign_screen_says_why_an_overrun_ends_the_turn_file(browser, comp):
    """Issue 41: an overrun in the middle of the Movement Phase went straight to Sign, the
    other moves unmade and no word why; the Sign screen says the file ends there."""
    session, packet_view = overrun_turn(comp)
    assert session.question is None and session.cut == "overrun"
    served = Served(session, comp, packet_view)
    page = browser.new_page()
    try:
        page.goto(served.address)
        page.wait_for_selector("#ask button.primary")
        hints = page.locator("#ask p.hint").all_inner_texts()
        assert labels.cut("overrun") in hints
        page.click("#ask button.primary")  # Sign
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert served.ended() is None
