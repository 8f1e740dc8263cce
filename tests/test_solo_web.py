"""A whole `seki solo --web` game, played to the end through the page in a real Chromium
(issue 30): the command runs as a player runs it, says each turn's address, and the page
is answered by clicks on legal choices at random until the game ends; the command then
reveals and verifies the archive, and `seki verify` agrees."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_reports import BROWSER_ARGS, CHROMIUM, _browser_or_skip

from sekigahara_pbem.referee.verify import verify

SEKI = Path(sys.executable).parent / "seki"
ADDRESS = "your turn is on the board: "


def click_a_turn(page, chooser: random.Random) -> None:
    """Answer the page's questions with random legal clicks until the turn is signed."""
    for _ in range(400):
        page.wait_for_selector("#ask p.prompt, main p.done", timeout=30_000)
        if page.query_selector("p.done"):
            return
        now = page.evaluate("() => fetch('state').then((r) => r.json())")
        q = now["question"]
        if q is None:
            page.click("#ask button.primary")  # Sign
            page.wait_for_selector("p.done", timeout=30_000)
            return
        choices = [c["i"] for c in q["choices"]]
        if not q["multi"]:
            with page.expect_response(lambda r: r.request.method == "POST"):
                page.click(f"#choice-{chooser.choice(choices)}")
        else:
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
            with page.expect_response(lambda r: r.request.method == "POST"):
                page.click("#ask button.primary")  # OK
        page.wait_for_timeout(30)  # the page draws the answer's moment
    raise AssertionError("the turn never ended")


@pytest.mark.slow
def test_a_whole_solo_game_through_the_page_is_verified(tmp_path):
    sync_playwright = _browser_or_skip()
    env = dict(os.environ, SEKI_HOME=str(tmp_path / "home"), BROWSER="true")
    game = subprocess.Popen(
        [str(SEKI), "solo", "g", "--web", "--side", "ishida", "--bot", "random"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: list[str] = []
    addresses: list[str] = []
    arrived = threading.Condition()

    def read() -> None:
        for line in game.stdout:
            with arrived:
                lines.append(line)
                if line.startswith(ADDRESS):
                    addresses.append(line[len(ADDRESS) :].strip())
                arrived.notify_all()
        with arrived:
            arrived.notify_all()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    chooser = random.Random(7)
    turns = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page = browser.new_page()
        while True:
            with arrived:
                arrived.wait_for(lambda n=turns: len(addresses) > n or game.poll() is not None,
                                 timeout=120)  # fmt: skip
                if len(addresses) <= turns:
                    break
                url = addresses[turns]
            page.goto(url)
            click_a_turn(page, chooser)
            turns += 1
        browser.close()
    assert game.wait(timeout=120) == 0, "".join(lines[-40:])
    reader.join(timeout=10)
    said = "".join(lines)
    assert "is over" in said and "verified" in said, said[-2000:]
    assert turns >= 5
    assert verify(tmp_path / "g" / "game").result is not None
