"""`seki play --web` in a referee's game (issue 41): the page stays after Sign. It waits
while seki signs and seals the turn file, then says where the file is and, left to mail,
offers a link that starts the player's own mail client; the command then ends, and the
file it wrote is the turn the referee adjudicates."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import cligame
from test_reports import BROWSER_ARGS, CHROMIUM, _browser_or_skip
from test_solo_web import play_the_game
from webdoor import Solo

ADDRESS = "your turn is on the board: "


def test_after_sign_the_page_says_where_the_turn_file_is_and_offers_the_mail(tmp_path):
    sync_playwright = _browser_or_skip()
    cligame.started(tmp_path)
    args = ("play", cligame.PACKET, "--key", "alice", "--web", "--lang", "en")
    with Solo(tmp_path, args, ADDRESS, home=tmp_path / "alice") as play, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page = browser.new_page()
        loads: list[str] = []
        page.on("load", lambda: loads.append(page.url))
        page.goto(play.address)
        page.wait_for_selector("#ask p.prompt")
        entered = list(loads)
        assert play_the_game(page, random.Random(5)) == 1  # the bid, signed; then the end
        said = page.inner_text("pre.over")
        mail = page.get_attribute("a#mail", "href")
        browser.close()
        status, terminal = play.ended()
    assert status == 0, terminal
    assert loads == entered  # the end came on the same page
    turn = tmp_path / "turn-g-1-ishida.signed.txt"
    assert turn.is_file()
    assert f"Your turn file, signed and sealed for the referee: {turn}" in said
    assert "wrote turn-g-1-ishida.signed.txt: mail it to the referee" in said
    assert "wrote turn-g-1-ishida.signed.txt: mail it to the referee" in terminal
    link = urlsplit(mail)
    asked = parse_qs(link.query)
    assert link.scheme == "mailto" and link.path == ""  # game g names no referee address
    assert asked["subject"] == ["[seki g] ishida: answer to packet 1"]
    assert asked["body"] == ["My turn file is attached: turn-g-1-ishida.signed.txt"]
    adjudicated = cligame.ok(tmp_path, "ref", "adjudicate", "g", turn.name, "--key", "ref")
    assert "record 2" in adjudicated
