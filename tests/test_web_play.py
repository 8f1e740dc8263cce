"""`seki play --web` in a referee's game (issue 41): the page stays after Sign. It waits
while seki signs and seals the turn file, then says where the file is and, left to mail,
offers a link that starts the player's own mail client; the command then ends, and the
file it wrote is the turn the referee adjudicates."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import cligame
import yaml
from conftest import fix_seeds
from mailplay import Campaign
from mailservers import PASSWORD
from test_play_mail import _home
from test_reports import BROWSER_ARGS, CHROMIUM, _browser_or_skip
from test_solo_web import play_the_game
from webdoor import Solo

from sekigahara_pbem.rules.vocab import SIDES

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


def test_with_send_the_page_says_the_turn_went_to_the_referee(servers, tmp_path, monkeypatch):
    """`seki play --send --web` with no packet named: the packet comes from the player's
    IMAP mailbox (dovecot, on 127.0.0.1), is answered on the page, and after Sign the page
    says the file was mailed to the referee (SMTP), with no link for a mail client; the
    referee's robot then adjudicates it from its own mailbox."""
    sync_playwright = _browser_or_skip()
    fix_seeds(monkeypatch, "web-send")
    c = Campaign(tmp_path, servers)
    root = c.new_game("websend")
    c.round()  # the invitations go out; the players' mail clients join
    homes = {s: _home(c, s, root) for s in SIDES}
    c.deliver()  # the joins answered with seeds
    c.robot()  # the game set up, the first packets mailed
    state = yaml.safe_load((root / "public" / "state.yaml").read_text(encoding="utf-8"))
    side = sorted({d["side"] for d in state["pending"]})[0]
    monkeypatch.setenv("SEKI_IMAP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SEKI_SMTP_PASSWORD", PASSWORD)
    here = tmp_path / "player"
    here.mkdir()
    args = ("play", "--key", side, "--send", "--web", "--lang", "en")
    with Solo(here, args, ADDRESS, home=homes[side]) as play, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page = browser.new_page()
        page.goto(play.address)
        page.wait_for_selector("#ask p.prompt")
        assert play_the_game(page, random.Random(7)) == 1
        said = page.inner_text("pre.over")
        link = page.query_selector("a#mail")
        browser.close()
        status, terminal = play.ended()
    assert status == 0, terminal
    sent = next(here.glob(f"turn-websend-*-{side}.signed.txt"))
    assert f"Your turn file, signed and sealed for the referee: {sent}" in said
    assert f"mailed {sent.name} to the referee" in said, said
    assert link is None  # mailed: nothing left for the player's own mail client
    before = len(list((root / "records").glob("*.txt")))
    out = c.robot()
    assert "refused" not in out.lower(), out
    assert len(list((root / "records").glob("*.txt"))) == before + 1
