"""The page's local web server as a Starlette application: the page, its script and
style, the moment as JSON, and one POST per thing the player does (answer, undo, sign,
stop), each handed to the Desk.

Only the player's own browser may use it (`Guard`): the server listens on 127.0.0.1 only;
every request but the door's (/enter, with the one-time key of the forwarding file,
door.py) needs the cookie the door sets, so another local program or a web page that
guesses the port still cannot read the hand or answer; a Host header other than
127.0.0.1 or localhost at this port is refused (a DNS-rebinding page names its own host);
a POST whose Origin is another site's is refused; nothing changes on a GET.

A POST's body is read only up to MAX_BODY (413 past it, the rest unread), nested no
deeper than MAX_DEPTH, and must have exactly the shape the page sends (400 otherwise):
hostile bodies are one-line refusals, never an error on the player's terminal."""

from __future__ import annotations

import json
import secrets
from html import escape
from importlib.resources import files
from itertools import accumulate
from string import Template

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..i18n import current, explain
from ..i18n import gettext as _
from ..play.console import NotAnAnswer
from ..refusal import SekiError
from .desk import Desk, Stale
from .door import Door

STATIC = files(__package__) / "static"
NO_STORE = {"Cache-Control": "no-store"}  # the hand is not kept in any cache
# The page runs only its own script and reaches only this server; the map's markup keeps
# a style attribute. The packet's report runs no script at all.
PAGE = {
    **NO_STORE,
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'",
}
REPORT = {
    **NO_STORE,
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
}
# The door's answer: the cookie, and on to the page. The page is then opened from this
# server itself, so the browser sends it the SameSite=Strict cookie (it would not on a
# redirect of the navigation the forwarding file started).
ENTERED = {
    **NO_STORE,
    "Content-Security-Policy": "default-src 'none'",
    "Referrer-Policy": "no-referrer",
}
FORWARD = '<!DOCTYPE html><meta http-equiv="refresh" content="0;url=/"><title>seki</title>\n'
# The largest answer measured over random games is 63 bytes (every choice of the widest
# question, 20 choices, picked); a body the page sends stays far under these.
MAX_BODY = 16 * 1024
MAX_DEPTH = 4  # the page's bodies nest 2 deep: an object holding a list
MAX_PICKS = 512
FIELDS = {"answer": {"seq", "picks"}, "undo": {"seq"}, "sign": {"seq"}, "stop": set()}
ACTIONS = tuple(FIELDS)


class Guard:
    """ASGI middleware that refuses (403) any request with a foreign Host header or a
    POST from another origin, and, but for the door, any without the door's cookie."""

    def __init__(self, app: ASGIApp, door: Door, cookie: str, port: int):
        self.app, self.door, self.cookie = app, door, cookie
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.allowed(Request(scope)):
            await PlainTextResponse("forbidden", 403)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def allowed(self, request: Request) -> bool:
        host = request.headers.get("host", "")
        if host not in self.hosts:
            return False
        origin = request.headers.get("origin")
        if request.method == "POST" and origin not in (None, f"http://{host}"):
            return False
        if request.scope["path"] == "/enter":
            return True  # its key is the door's to check
        given = request.cookies.get(self.cookie, "")
        return secrets.compare_digest(given.encode(), self.door.cookie.encode())


def application(desk: Desk, door: Door, port: int, title: str) -> ASGIApp:
    """The server's application for one turn (or one two-party record)."""
    cookie = f"seki-{port}"  # a browser keeps one jar for every port of 127.0.0.1

    async def enter(request: Request) -> Response:
        if not door.enter(request.query_params.get("key", "")):
            return PlainTextResponse("forbidden", 403)
        response = HTMLResponse(FORWARD, headers=ENTERED)
        response.set_cookie(cookie, door.cookie, path="/", httponly=True, samesite="strict")
        return response

    async def page(request: Request) -> Response:
        shell = Template((STATIC / "page.html").read_text(encoding="utf-8"))
        name = escape(_("The packet's report"))
        link = f'<a href="report" target="_blank">{name}</a>'
        text = shell.substitute(
            title=escape(title),
            lang=current(),
            report=link if desk.report_html is not None else "",
            words=json.dumps(page_words()).replace("<", "\\u003c"),
        )
        return HTMLResponse(text, headers=PAGE)

    def static(name: str, media: str):
        async def endpoint(request: Request) -> Response:
            return Response((STATIC / name).read_text(encoding="utf-8"), media_type=media)

        return endpoint

    async def report(request: Request) -> Response:
        report_html = desk.report_html  # the packet's of the question shown
        if report_html is None:
            return PlainTextResponse("no report", 404)
        return HTMLResponse(report_html, headers=REPORT)

    async def state(request: Request) -> Response:
        return JSONResponse(desk.now(), headers=NO_STORE)

    def action(what: str):
        async def endpoint(request: Request) -> Response:
            try:
                data = await _read(request)
                if data is None:
                    return JSONResponse({"error": "the request is too large"}, 413)
                seq, picks = _fields(what, _parse(data))
                return JSONResponse(_do(desk, what, seq, picks))
            except Malformed as exc:
                return JSONResponse({"error": str(exc)}, 400)
            except Stale as exc:
                return JSONResponse({"error": explain(exc), "stale": True}, 409)
            except NotAnAnswer as exc:  # said beside the question, as at the terminal
                return JSONResponse({"error": explain(exc)}, 422)

        return endpoint

    routes = [
        Route("/enter", enter),
        Route("/", page),
        Route("/page.js", static("page.js", "text/javascript")),
        Route("/page.css", static("page.css", "text/css")),
        Route("/report", report),
        Route("/state", state),
        *[Route(f"/{what}", action(what), methods=["POST"]) for what in ACTIONS],
    ]
    return Guard(Starlette(routes=routes), door, cookie, port)


def page_words() -> dict[str, str]:
    """The page's own words, in the reader's language (page.js puts them in place)."""
    return {
        "undo": _("Undo"),
        "stop": _("Stop"),
        "sign": _("Sign"),
        "ok": _("OK"),
        "hand": _("Your hand ({n})"),
        "empty": _("empty"),
        "so_far": _("Your turn so far"),
        "your_turn": _("Your turn:"),
        "sign_hint": _("Sign it, or undo the last answer."),
        "map_hint": _("Click a ringed place on the map, or a choice below."),
        "then_ok": _("{count}, then OK."),  # count: play/console.how_many's words
        "pick_any": _("Choose any, or none, then OK."),
        "tiles_hint": _("Click to choose, click again to leave."),
        "chosen": _("Chosen: {n}"),
        "stopped": _("stopped: nothing written"),
        "waiting": _("One moment: seki works out what comes next…"),
        "gone": _(
            "seki is no longer running: its terminal says how this ended. Run the command "
            "again to go on."
        ),
        "your_record": _("Your record:"),
        "record_hint": _("Sign it, undo the last answer, or stop: nothing is written then."),
        "story": _("Since your last turn"),
    }


class Malformed(SekiError):
    """A POST body the page never sends: refused (400) with this one line."""


def _do(desk: Desk, what: str, seq: int, picks: list[int]) -> dict:
    if what == "answer":
        return desk.answer(seq, picks)
    if what == "undo":
        return desk.undo(seq)
    if what == "sign":
        return desk.sign(seq)
    return desk.stop()


async def _read(request: Request) -> bytes | None:
    """The POST's body, or None once it is longer than MAX_BODY: the rest is not read
    (a length announced past it is not waited for). Malformed if the sender hangs up
    before its end."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        return None
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                return None
    except ClientDisconnect:  # boundary: Starlette says so only by raising
        raise Malformed("the request was cut off") from None
    return bytes(data)


def _parse(data: bytes) -> dict:
    """The body's JSON object. Its nesting is bounded before the parser sees it: every
    bracket counts, even one inside a string (the page sends none), so the parser never
    goes deeper than MAX_DEPTH."""
    text = data.decode("utf-8", errors="replace")
    if max(accumulate((c in "[{") - (c in "]}") for c in text), default=0) > MAX_DEPTH:
        raise Malformed("the request is nested too deep")
    try:
        body = json.loads(text)
    except ValueError:  # boundary: json reports a malformed body only by raising
        raise Malformed("expected a JSON object") from None
    if not isinstance(body, dict):
        raise Malformed("expected a JSON object")
    return body


def _fields(what: str, body: dict) -> tuple[int, list[int]]:
    """The moment's number and the picks (distinct choice numbers) of a body that holds
    exactly the fields the page sends for `what`."""
    if set(body) != FIELDS[what]:
        raise Malformed(f"expected the fields: {', '.join(sorted(FIELDS[what])) or 'none'}")
    seq, picks = body.get("seq", 0), body.get("picks", [])
    if type(seq) is not int:
        raise Malformed("expected the moment's number")
    if not isinstance(picks, list) or len(picks) > MAX_PICKS:
        raise Malformed("expected a list of choice numbers")
    if not all(type(i) is int for i in picks):
        raise Malformed("expected a list of choice numbers")
    if len(set(picks)) != len(picks):
        raise Malformed("a choice is picked twice")
    return seq, picks
