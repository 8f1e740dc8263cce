"""Issue 37, hole 1: the page's secret is never on a command line. `seki solo --web` (as
`seki play --web`, the same web/turn.Board) starts the browser with the address of a
file, not of the page: a browser keeps its arguments for its whole life, and every local
user reads them in the process list. The file (0600, in a directory of its own, 0700)
forwards with a key that opens the page once, for an HttpOnly, SameSite=Strict cookie;
a key used once is refused, a request without the cookie is refused, and the file is
gone when the page ends. Through a real Chromium and the real command."""

from __future__ import annotations

import stat

from test_reports import BROWSER_ARGS, CHROMIUM, _browser_or_skip
from webdoor import Solo, door, file_of, request

from sekigahara_pbem.refusal import ExitStatus


def test_the_browser_is_given_a_private_file_whose_key_opens_the_page_once(tmp_path):
    sync_playwright = _browser_or_skip()
    with Solo(tmp_path) as solo:
        # the browser's one argument, and what the terminal says to open by hand, is the
        # file: the page's address and its key are in neither
        assert solo.browser == f"(1): {solo.address}"
        forward = file_of(solo.address)
        origin, port, key = door(solo.address)
        said = "".join(solo.lines)
        assert origin not in said and key.split("=")[1] not in said
        assert stat.S_IMODE(forward.stat().st_mode) == 0o600
        assert stat.S_IMODE(forward.parent.stat().st_mode) == 0o700
        assert forward.parent.parent == tmp_path / "run"  # $XDG_RUNTIME_DIR
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
            page = browser.new_page()
            page.goto(solo.address)
            page.wait_for_selector("#ask p.prompt")
            assert page.url == f"{origin}/"
            (cookie,) = page.context.cookies()
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
            assert page.evaluate("() => document.cookie") == ""
            # the key the browser used is dead; the file holds a fresh one
            assert request(port, "GET", key, {})[0] == 403
            assert door(solo.address)[2] != key
            # without the cookie nothing is read or answered, nor stopped
            own = {"Origin": origin, "Content-Type": "application/json"}
            for method, path in (("GET", "/"), ("GET", "/state"), ("GET", "/report")):
                assert request(port, method, path, {})[0] == 403, path
            for what, body in (("answer", b'{"seq": 0, "picks": [0]}'), ("stop", b"{}")):
                assert request(port, "POST", f"/{what}", own, body)[0] == 403, what
            assert solo.process.poll() is None
            page.click("#tools button >> nth=1")  # Stop, with the cookie
            page.wait_for_selector(".done")
            browser.close()
        status, said = solo.ended()
    assert status == ExitStatus.STOPPED, said
    assert not forward.exists() and not forward.parent.exists()
