"""The page's local web server as a Starlette application: the page, its script and
style, the moment as JSON, and one POST per thing the player does (answer, undo, sign,
stop), each handed to the Desk.

Only the player's own browser may use it (`Guard`): the server listens on 127.0.0.1 only;
every path starts with a random token, so another local program or a web page that
guesses the port still cannot read the hand or answer; a Host header other than
127.0.0.1 or localhost at this port is refused (a DNS-rebinding page names its own host);
a POST whose Origin is another site's is refused; nothing changes on a GET."""

from __future__ import annotations

import json
import secrets
from html import escape
from importlib.resources import files
from string import Template

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..i18n import current, explain
from ..i18n import gettext as _
from ..play.console import NotAnAnswer
from .desk import Desk, Stale

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


class Guard:
    """ASGI middleware that refuses (403) any request without the token, with a foreign
    Host header, or a POST from another origin."""

    def __init__(self, app: ASGIApp, token: str, port: int):
        self.app, self.token = app, token
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.allowed(scope):
            await PlainTextResponse("forbidden", 403)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def allowed(self, scope: Scope) -> bool:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        first = scope["path"].split("/")[1] if scope["path"].count("/") >= 2 else ""
        if not secrets.compare_digest(first.encode(), self.token.encode()):
            return False
        if host not in self.hosts:
            return False
        origin = headers.get("origin")
        return scope["method"] != "POST" or origin is None or origin == f"http://{host}"


def application(desk: Desk, token: str, port: int, title: str, report_html: str | None) -> ASGIApp:
    """The server's application for one turn (or one two-party record), under /TOKEN/."""

    async def page(request: Request) -> Response:
        shell = Template((STATIC / "page.html").read_text(encoding="utf-8"))
        name = escape(_("The packet's report"))
        link = f'<a href="report" target="_blank">{name}</a>'
        text = shell.substitute(
            title=escape(title),
            lang=current(),
            report=link if report_html is not None else "",
            words=json.dumps(page_words()).replace("<", "\\u003c"),
        )
        return HTMLResponse(text, headers=PAGE)

    def static(name: str, media: str):
        async def endpoint(request: Request) -> Response:
            return Response((STATIC / name).read_text(encoding="utf-8"), media_type=media)

        return endpoint

    async def report(request: Request) -> Response:
        if report_html is None:
            return PlainTextResponse("no report", 404)
        return HTMLResponse(report_html, headers=REPORT)

    async def state(request: Request) -> Response:
        return JSONResponse(desk.now(), headers=NO_STORE)

    def action(what: str):
        async def endpoint(request: Request) -> Response:
            body = await _body(request)
            if body is None:
                return JSONResponse({"error": "expected a JSON object"}, 400)
            seq, picks = body.get("seq"), body.get("picks", [])
            if what != "stop" and type(seq) is not int:
                return JSONResponse({"error": "expected the moment's number"}, 400)
            if not isinstance(picks, list) or not all(type(i) is int for i in picks):
                return JSONResponse({"error": "expected a list of choice numbers"}, 400)
            try:
                return JSONResponse(_do(desk, what, seq, picks))
            except Stale as exc:
                return JSONResponse({"error": explain(exc), "stale": True}, 409)
            except NotAnAnswer as exc:  # said beside the question, as at the terminal
                return JSONResponse({"error": explain(exc)}, 422)

        return endpoint

    base = f"/{token}"
    routes = [
        Route(f"{base}/", page),
        Route(f"{base}/page.js", static("page.js", "text/javascript")),
        Route(f"{base}/page.css", static("page.css", "text/css")),
        Route(f"{base}/report", report),
        Route(f"{base}/state", state),
        *[Route(f"{base}/{what}", action(what), methods=["POST"]) for what in ACTIONS],
    ]
    return Guard(Starlette(routes=routes), token, port)


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
        "signed": _("Signed: seki writes the turn file in your terminal. You may close this page."),
        "stopped": _("stopped: nothing written"),
        "waiting": _("One moment: seki works out what comes next…"),
        "your_record": _("Your record:"),
        "record_hint": _("Sign it, undo the last answer, or stop: nothing is written then."),
        "signed_record": _(
            "Signed: seki writes the record in your terminal. You may close this page."
        ),
        "story": _("Since your last turn"),
    }


ACTIONS = ("answer", "undo", "sign", "stop")


def _do(desk: Desk, what: str, seq: int, picks: list[int]) -> dict:
    if what == "answer":
        return desk.answer(seq, picks)
    if what == "undo":
        return desk.undo(seq)
    if what == "sign":
        return desk.sign(seq)
    return desk.stop()


async def _body(request: Request) -> dict | None:
    """The POST's JSON object, or None if it is not one."""
    try:
        body = await request.json()
    except ValueError:  # boundary: json reports a malformed body only by raising
        return None
    return body if isinstance(body, dict) else None
