"""`answer_in_browser`: one turn answered in the player's browser, on a local server that
lives only as long as the turn (app.py says who may use it)."""

from __future__ import annotations

import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable

import uvicorn

from ..i18n import gettext as _
from ..play.console import Stopped
from ..play.session import TurnSession
from ..rules.components import Components
from .app import application
from .desk import STOPPED, Desk

WAIT = 0.5  # seconds between looks at the server while the player answers


def answer_in_browser(
    session: TurnSession,
    comp: Components,
    view: dict,
    *,
    title: str,
    report_html: str | None = None,
    open_browser: bool = True,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the page of this turn on 127.0.0.1 (a free port, a random token in the
    URL), say its URL (`on_ready`), open the browser if asked, and return once the player
    signs the whole turn: `session.actions` holds it. Stopped (nothing written) if the
    player presses Stop. `view` is the packet's: the choices are worded from it, as at the
    terminal; `report_html`, the packet's report, is linked from the page. The server
    stops in every case, an interrupt at the terminal (Ctrl-C) included."""
    desk = Desk(session, comp, view)
    token = secrets.token_urlsafe(24)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    app = application(desk, token, port, title, report_html)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        while not server.started and thread.is_alive():
            thread.join(0.01)
        url = f"http://127.0.0.1:{port}/{token}/"
        if on_ready is not None:
            on_ready(url)
        if open_browser:
            webbrowser.open(url)
        while not desk.ended.wait(WAIT) and thread.is_alive():
            pass
    finally:
        server.should_exit = True
        thread.join()
        listener.close()
    if desk.outcome is None:
        raise RuntimeError("the page's server stopped before the turn was signed or stopped")
    if desk.outcome == STOPPED:
        raise Stopped(_("stopped: nothing written"))
