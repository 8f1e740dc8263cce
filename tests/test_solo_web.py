"""A whole `seki solo --web` game, played to the end on one page in a real Chromium
(issues 30, 41): the command runs as a player runs it and says the page's address once;
each turn comes on the same page when the computer has played, and is answered by clicks
on legal choices at random until the game ends; the command then reveals and verifies
the archive, the page shows how the game ended, and `seki verify` agrees."""

from __future__ import annotations

import random

import pytest
from test_reports import BROWSER_ARGS, CHROMIUM, _browser_or_skip
from webdoor import ADDRESS, Solo

from sekigahara_pbem.referee.verify import verify
from sekigahara_pbem.refusal import ExitStatus

# The report the page links (the packet's, in HTML) read as the page's panel reads: the
# moment, the first player and the points; each side's cards and blocks off the map; the
# Mōri Box and the eliminated.
REPORT_SITUATION = """() => fetch('report').then((r) => r.text()).then((html) => {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const texts = [...doc.querySelectorAll('p')].map((p) => p.textContent.trim());
  const rows = [...doc.querySelectorAll('table tr')].slice(1).map((tr) =>
    [...tr.children].map((c) => c.textContent.trim()));
  return {texts, rows};
})"""


def play_the_game(
    page, chooser: random.Random, turns: int | None = None, glance: bool = False
) -> int:
    """Answer the page's questions with random legal clicks and sign each turn, until the
    page says the game is over (or `turns` are signed and the next question is on the
    page); the turns signed. With `glance`, at the start of every turn the game at a
    glance beside the map says what the packet's report says (issue 41)."""
    signed = 0
    for _ in range(20_000):
        page.wait_for_selector("#ask p.prompt, #ask button.primary, pre.over", timeout=120_000)
        if page.query_selector("pre.over"):
            return signed
        now = page.evaluate("() => fetch('state').then((r) => r.json())")
        if "question" not in now:  # the computer is playing: the page waits, then asks
            page.wait_for_timeout(50)
            continue
        q = now["question"]
        if signed == turns and q is not None:
            return signed
        if glance and q is not None and not now["turn"]:
            _same_as_the_report(page, now["situation"])
        shown = page.evaluate("() => document.body.dataset.seq")
        with page.expect_response(lambda r: r.request.method == "POST"):
            if q is None:
                page.click("#ask button.primary")  # Sign
                signed += 1
            elif not q["multi"]:
                page.click(f"#choice-{chooser.choice([c['i'] for c in q['choices']])}")
            else:
                _tick(page, q, chooser)
                page.click("#ask button.primary")  # OK
        # The page draws the answer's moment before the next look: a look at a question
        # still drawn would fetch the moment after it in the page's place, and the last
        # one, the end, is fetched once (the server leaves when it has been fetched).
        page.wait_for_function("(s) => document.body.dataset.seq !== s", arg=shown)
    raise AssertionError("the game never ended")


def _same_as_the_report(page, shown: dict) -> None:
    """The panel's lines and counts are the packet report's: its moment, first player and
    points; each side's hand, deck, discards, bag and recruits; the boxes."""
    report = page.evaluate(REPORT_SITUATION)
    texts = " | ".join(report["texts"])
    for line in shown["lines"]:  # the report lists the castles and resources one by one
        if not line.startswith(("Castles", "Resource")):
            assert line in texts, (line, texts[:2000])
    rows = [r for r in report["rows"] if len(r) == 6]
    assert rows == [[str(c) for c in counts] for counts in shown["counts"]], rows
    for name, text in shown["boxes"]:
        assert f"{name}: {text}" in texts, (name, text)


def _tick(page, q: dict, chooser: random.Random) -> None:
    """Tick a random legal number of a question's choices, as the player would."""
    choices = [c["i"] for c in q["choices"]]
    n = q["pick"] if isinstance(q["pick"], int) else None
    if n is None:
        least = 0 if q["pick"] == "any" else 1
        most = min(len(choices), q["limit"] or len(choices))
        n = chooser.randint(least, most)
    wanted = set(chooser.sample(choices, n))
    for i in choices:
        tick = page.locator(f"#choice-{i} input")
        if tick.is_checked() != (i in wanted):
            tick.click()


def test_the_next_turn_comes_on_the_same_page(tmp_path):
    """After Sign the page waits while the computer plays, then asks the next turn on the
    same page, without a reload (it was a new page, and a new server, for every turn);
    Stop there writes nothing more and keeps the game to resume."""
    sync_playwright = _browser_or_skip()
    with Solo(tmp_path) as solo, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page = browser.new_page()
        loads: list[str] = []
        page.on("load", lambda: loads.append(page.url))
        page.goto(solo.address)  # the door's file, its key, then the page itself
        page.wait_for_selector("#ask p.prompt")
        entered = list(loads)
        assert play_the_game(page, random.Random(3), turns=2) == 2
        assert loads == entered  # no page loaded again: every turn came on this one
        page.click("#tools button >> nth=1")  # Stop
        page.wait_for_selector("p.done")
        browser.close()
        status, said = solo.ended()
    assert status == ExitStatus.STOPPED and "the game is kept" in said, said[-2000:]
    assert said.count(ADDRESS) == 1


@pytest.mark.slow
def test_a_whole_solo_game_through_the_page_is_verified(tmp_path):
    sync_playwright = _browser_or_skip()
    with Solo(tmp_path) as solo, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page = browser.new_page()
        page.goto(solo.address)
        turns = play_the_game(page, random.Random(7), glance=True)
        over = page.inner_text("pre.over")
        browser.close()
        status, said = solo.ended()
    assert status == 0, said[-2000:]
    assert "is over" in said and "verified" in said, said[-2000:]
    assert said.count(ADDRESS) == 1  # one page for the whole game
    assert "is over" in over and "verified" in over, over[-2000:]
    assert turns >= 5
    assert verify(tmp_path / "g" / "game").result is not None


def test_the_battle_plan_is_asked_on_the_page_first(tmp_path):
    """`seki solo --web --plan`: the plan's questions come first on the page, answered
    by clicks like any other; the turn then goes on to the decision, signed with its plan."""
    sync_playwright = _browser_or_skip()
    args = ("solo", "g", "--web", "--side", "ishida", "--bot", "random", "--plan")
    with Solo(tmp_path, args) as solo, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page = browser.new_page()
        page.goto(solo.address)
        prompts = []
        for _ in range(20):  # the plan's questions, each answered with its last order
            page.wait_for_selector("#ask p.prompt")
            now = page.evaluate("() => fetch('state').then((r) => r.json())")
            if any(t["text"].startswith("file this battle plan") for t in now["turn"]):
                break  # the plan is made: the turn goes on to the decision
            prompts.append(now["question"]["prompt"])
            with page.expect_response(lambda r: r.request.method == "POST"):
                page.click(f"#choice-{now['question']['choices'][-1]['i']}")
            page.wait_for_function(f"() => document.body.dataset.seq > {now['seq']}")
        assert prompts[0].startswith("Battle plan.") and 6 <= len(prompts) < 20, prompts
        assert now["question"] is not None  # the decision itself, asked next
        page.click("#tools button >> nth=1")  # Stop
        page.wait_for_selector("p.done")
        browser.close()
        status, said = solo.ended()
    assert status == ExitStatus.STOPPED, said[-2000:]
