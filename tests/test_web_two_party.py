"""`seki play DIR --web` in a two-party game (issue 30): a record of several actions is
answered on one page in a real Chromium, one server and one tab for the whole record,
each decision's question picked up without a reload, then the record signed on the page.
It holds the same actions as the terminal's record (play/two_party.AtTheTerminal, the path
of `--choose`) from the same answers; Undo goes back across the record's decisions, and
at the record to sign takes its last answer back; Stop on the page writes nothing."""

from __future__ import annotations

import queue
import threading
from urllib.parse import parse_qs, urlsplit

import pytest
from two_party_game import Game, actions, at_movement, deploys_first, play_until
from webdoor import Solo, door

from sekigahara_pbem.play import console
from sekigahara_pbem.play import two_party as ui
from sekigahara_pbem.rules.decisions import Question
from sekigahara_pbem.rules.vocab import other
from sekigahara_pbem.twoparty.side import Side


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Game:
    """Two bots' two-party game through the files, up to a side's Movement Phase."""
    return play_until(tmp_path_factory.mktemp("two-party-web"), at_movement, "web")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Game:
    """Two bots' two-party game through the files, up to a record that deploys first."""
    return play_until(tmp_path_factory.mktemp("two-party-deploy"), deploys_first, "web-deploy")


class Served:
    """`play.two_party.on_the_board` running in a thread as the command runs it (no mail
    settings: the record is the player's to send): the
    addresses it said (its forwarding file, webdoor.py), the page's URL behind the first,
    and how it ended (None once the record is written, else what it raised)."""

    def __init__(self, side: Side, now: str):
        self.urls: queue.Queue[str] = queue.Queue()
        self.raised: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(side, now), daemon=True)
        self.thread.start()
        self.address = self.urls.get(timeout=30)
        self.url = f"{door(self.address)[0]}/"

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
            page.wait_for_selector(".done")
            return answers, listed
        q = now["question"]
        picks = _pick(q, moves)
        with page.expect_response(lambda r: r.request.method == "POST"):
            _click(page, q, picks)
        answers.append(picks)
        page.wait_for_function(f"() => document.body.dataset.seq > {now['seq']}")
    raise AssertionError("the record never came to be signed")


def _terminal(side: Side, answers: list[list[int]], now: str) -> str:
    """The record the terminal writes from the same answers (as `--choose` types them:
    each answer the numbers the terminal shows for the chosen choices); its text."""
    given = iter(answers)

    def ask(prompt: str, question: Question) -> str:
        if question is console.CONFIRM:
            return ""
        shown = console.numbers(question)
        return " ".join(str(shown[i]) for i in next(given))

    record = ui.AtTheTerminal(ask, lambda line: None)
    text = side.turn(record.choose, now, record.confirm)
    assert next(given, None) is None
    return text


def test_a_record_of_several_actions_is_answered_on_one_page(game, browser, tmp_path):
    """One URL said once, one tab loaded once: the level, two stack moves and the end of
    the phase clicked, each next question coming without a reload; the record listed
    and signed on the page is the terminal's from the same answers, and the other side
    takes it in."""
    web, terminal = game.copy(game.due, tmp_path / "web"), game.copy(game.due, tmp_path / "term")
    now = game.clock.now()
    before = len(web.records())
    served = Served(web, now)
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's
    loads: list[str] = []
    problems: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    page.on(
        "request",
        lambda r: r.url.startswith((served.url, served.address)) or problems.append(r.url),
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        answers, listed = _answer_on_the_page(page, served.address)
        assert loads.count(served.url) == 1 and page.url == served.url  # loaded once
        # the page stays after Sign: where the record is, and the player's own mail
        # client addressed for it (nothing was mailed: no mail settings)
        closing = page.inner_text("pre.over")
        assert f"Your record, signed: {web.records()[-1].resolve()}" in closing
        assert "You may close this page." in closing
        assert page.get_attribute("#mail", "href").startswith("mailto:")
    finally:
        page.close()
    assert served.ended() is None and served.urls.empty() and not problems
    assert len(web.records()) == before + 1
    text = web.records()[-1].read_text(encoding="utf-8")
    chosen = actions(web.game, text)
    assert len(chosen) == listed >= 3, chosen
    assert sum(a["type"] == "move" for a in chosen) == 2
    assert text == _terminal(terminal, answers, now)
    opponent = game.copy(other(game.due), tmp_path / "other")
    opponent.receive(text, web.records()[-1].name, game.clock.now())


def _state(page) -> dict:
    return page.evaluate("() => fetch('state').then((r) => r.json())")


def _after(page, now: dict) -> dict:
    """The next moment the page shows a question or the record in (past any moment of
    waiting while seki builds the record)."""
    page.wait_for_function(f"() => document.body.dataset.seq > {now['seq']}")
    page.wait_for_selector("#ask p.prompt")
    return _state(page)


def _choose(page, now: dict, starts: str) -> tuple[dict, list[int]]:
    """Click the choice whose words start with `starts` (a question of many: tick it, then
    OK); the next moment, and the answer as indices."""
    q = now["question"]
    picks = [next(c["i"] for c in q["choices"] if c["label"].startswith(starts))]
    with page.expect_response(lambda r: r.request.method == "POST"):
        _click(page, q, picks)
    return _after(page, now), picks


def _opened(browser, served: Served):
    """A page on the served record, its first question shown, and the list its script
    errors go to."""
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(served.address)
    page.wait_for_selector("#ask p.prompt")
    return page, problems


def test_undo_at_a_decisions_first_question_goes_back_into_the_one_before(game, browser, tmp_path):
    """The level chosen (minimal), then Undo at the first question of the next decision:
    the level is asked again, with nothing of it left on the page, and answered
    differently (limited, paying a card); the record signed on the page is the one the
    terminal writes from the answers kept alone, byte for byte, and the other side's
    engine takes it in."""
    web, terminal = game.copy(game.due, tmp_path / "web"), game.copy(game.due, tmp_path / "term")
    now = game.clock.now()
    served = Served(web, now)
    page, problems = _opened(browser, served)
    try:
        moment, kept = _state(page), []
        if moment["question"]["prompt"].startswith("What next"):  # Mōri's blocks, or the level
            moment, first = _choose(page, moment, "choose the movement level")
            kept.append(first)
        moment, _minimal = _choose(page, moment, "minimal")
        assert [t["text"] for t in moment["turn"]] == ["Minimal movement (1 stack move), free"]
        assert moment["question"]["prompt"].startswith("What next")
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.click("#tools button >> nth=0")  # Undo
        moment = _after(page, moment)
        assert moment["question"]["prompt"] == "Movement level (7.1)" and not moment["turn"]
        moment, limited = _choose(page, moment, "limited")
        card = moment["question"]["choices"][0]["card"]
        moment, paid = _choose(page, moment, card + " ")
        moment, end = _choose(page, moment, "end the Movement Phase")
        kept += [limited, paid, end]
        assert moment.get("record"), moment  # the record to sign
        assert moment["turn"][0]["text"] == f"Limited movement (3 stack moves), paying {card}"
        page.click("#ask button.primary")  # Sign
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert served.ended() is None and not problems
    text = web.records()[-1].read_text(encoding="utf-8")
    assert actions(web.game, text)[0] == {"type": "level", "level": "limited", "cards": [card]}
    assert text == _terminal(terminal, kept, now)
    opponent = game.copy(other(game.due), tmp_path / "other")
    opponent.receive(text, web.records()[-1].name, game.clock.now())


def _with_a_card(q: dict) -> list[int]:
    """A deployment with a card where one is offered, else the first choice."""
    return [next((c["i"] for c in q["choices"] if c["card"]), 0)]


def _through(page, moment: dict, pick) -> tuple[dict, list[list[int]], list[str]]:
    """Every question answered by clicks (`pick` chooses), up to the record to sign: its
    moment, the answers, and the words of each choice clicked."""
    answers, words = [], []
    while not moment.get("record"):
        q = moment["question"]
        answers.append(pick(q))
        words.append(q["choices"][answers[-1][0]]["label"])
        with page.expect_response(lambda r: r.request.method == "POST"):
            _click(page, q, answers[-1])
        moment = _after(page, moment)
    return moment, answers, words


def test_the_record_lists_each_action_as_chosen_and_undo_there_takes_back_its_last_answer(
    deployment, browser, tmp_path
):
    """A record that deploys a block with a card: the record to sign lists the
    deployment as the question offered it (its impact on the battle as it stood, not on
    the battle the record leaves). Undo there asks the last question again; Finish is
    chosen instead and signed: the record is the terminal's from the answers kept, byte
    for byte, and the other side takes it in."""
    due = deployment.due
    web, terminal = deployment.copy(due, tmp_path / "web"), deployment.copy(due, tmp_path / "t")
    now = deployment.clock.now()
    served = Served(web, now)
    page, problems = _opened(browser, served)
    try:
        moment, answers, words = _through(page, _state(page), _with_a_card)
        assert words[-1].startswith("Deploy") and " with " in words[-1]
        assert [t["text"] for t in moment["turn"]][-1] == words[-1]
        undo = "(seq) => fetch('undo', {method: 'POST', body: JSON.stringify({seq})})"
        assert page.evaluate(f"({undo})({moment['seq']}).then((r) => r.status)") == 200
        page.reload()  # the page shows no Undo beside a record yet (static/page.js)
        page.wait_for_selector("#ask p.prompt")
        moment = _state(page)
        assert moment["question"]["choices"][answers[-1][0]]["label"] == words[-1]
        finish = [next(c["i"] for c in moment["question"]["choices"] if c["label"][:6] == "Finish")]
        picks = iter([finish])  # then, whatever else the record asks, as before
        moment, again, _words = _through(
            page, moment, lambda q: next(picks, None) or _with_a_card(q)
        )
        kept = answers[:-1] + again
        page.click("#ask button.primary")  # Sign
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert served.ended() is None and not problems
    text = web.records()[-1].read_text(encoding="utf-8")
    assert text == _terminal(terminal, kept, now)
    opponent = deployment.copy(other(due), tmp_path / "other")
    opponent.receive(text, web.records()[-1].name, deployment.clock.now())


def test_stop_on_the_page_writes_no_record(game, browser, tmp_path):
    """Stop in the middle of the record (after its first action): Stopped, nothing
    written, and the server gone."""
    web = game.copy(game.due, tmp_path / "web")
    before = len(web.records())
    served = Served(web, game.clock.now())
    page = browser.new_page()
    try:
        page.goto(served.address)
        page.wait_for_selector("#ask p.prompt")
        now = _state(page)
        with page.expect_response(lambda r: r.request.method == "POST"):
            _click(page, now["question"], _pick(now["question"], [2]))
        page.wait_for_function(f"() => document.body.dataset.seq > {now['seq']}")
        page.wait_for_selector("#ask p.prompt")
        page.click("#tools button >> nth=-1")  # Stop
        page.wait_for_selector(".done")
    finally:
        page.close()
    assert isinstance(served.ended(), console.Stopped)
    assert len(web.records()) == before


def test_seki_play_web_keeps_its_page_after_sign_and_says_where_the_record_is(browser, tmp_path):
    """`seki play DIR --web` in a two-party game (issue 41): the page stays after Sign,
    says where the record is and what became of it, and offers the player's own mail
    client addressed to the other player (game.txt names the addresses, no mail
    settings: nothing is mailed); the terminal says it once."""
    from click.testing import CliRunner

    from sekigahara_pbem.cli import app

    def run(who: str, *args: str) -> str:
        done = CliRunner().invoke(app, list(args), env={"SEKI_HOME": str(tmp_path / who)})
        assert done.exit_code == 0, (args, done.output)
        return done.output

    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(run(name, "keys", "new", name))
    keys = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    alice, bob = tmp_path / "alice-game", tmp_path / "bob-game"
    run("alice", "game", "new", str(alice), "--two-party", "--key", "alice", *keys,
        "--email", "ishida=alice@example.org", "--email", "tokugawa=bob@example.org")  # fmt: skip
    run("bob", "join", str(alice / "game.txt"), "--key", "bob", "--out", str(bob))
    run("alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0001-tokugawa.txt"))
    run("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0000-ishida.txt"))
    args = ("play", str(bob), "--key", "bob", "-r", str(alice / "records/0002-ishida.txt"),
            "--web", "--lang", "en")  # fmt: skip
    with Solo(tmp_path, args, "your turn is on the board: ", home=tmp_path / "bob") as play:
        page = browser.new_page()
        try:
            _answer_on_the_page(page, play.address)
            closing = page.inner_text("pre.over")
            mail = page.get_attribute("#mail", "href")
        finally:
            page.close()
        status, terminal = play.ended()
    assert status == 0, terminal
    record = bob / "records" / "0003-tokugawa.txt"
    assert record.is_file()
    assert f"Your record, signed: {record.resolve()}" in closing
    assert f"wrote {record}: send it to the other player" in closing
    assert terminal.count("send it to the other player") == 1, terminal
    link = urlsplit(mail)
    assert link.scheme == "mailto" and link.path == "alice@example.org"
    assert parse_qs(link.query)["subject"] == ["[seki alice-game] tokugawa: 0003-tokugawa.txt"]
