"""The page on the player's browser: a local server that lives only as long as the turn
(app.py says who may use it), entered through a file only the player can read (door.py).
`Board` serves one turn or one two-party record, however many sessions it takes, or a
whole game of `seki solo`, turn after turn, on one address and one tab, which stays
after Sign: the command says on it how the turn, the record or the game ended."""

from __future__ import annotations

import contextvars
import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Sequence
from typing import cast

import uvicorn

from ..i18n import gettext as _
from ..play.console import Stopped
from ..play.session import TurnSession
from ..rules.components import Components
from ..rules.state_types import State
from .app import application
from .desk import STOPPED, Asking, Confirming, Desk
from .door import Door
from .moment import Story

WAIT = 0.5  # seconds between looks at the server while the player answers
FAREWELL = 10  # seconds a finished game's page is given to fetch its last moment


class Board:
    """The page's server, as a context manager: started on entering (127.0.0.1, a free
    port, its forwarding file written: the file's address, which holds no secret, said
    with `on_ready` and given to the browser if asked), stopped and the file removed on
    leaving, an interrupt at the terminal (Ctrl-C) included. In between, each `answer` or
    `confirm` puts its question on the same page, which picks it up without a reload.
    `story`: what happened since the player's last turn, drawn on the map and listed;
    `report_html`, the report, is linked from the page."""

    def __init__(
        self,
        *,
        title: str,
        report_html: str | None = None,
        story: Story | None = None,
        open_browser: bool = True,
        on_ready: Callable[[str], None] | None = None,
    ):
        self.desk = Desk(story or Story([], []))
        self.desk.report_html = report_html
        self.title = title
        self.open_browser, self.on_ready = open_browser, on_ready

    def __enter__(self) -> Board:
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        port = self._listener.getsockname()[1]
        self.door = Door(f"http://127.0.0.1:{port}")
        app = application(self.desk, self.door, port, self.title)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        # The server's thread runs in this thread's context: the reader's language
        # (i18n's context variable) words the page as it words the terminal.
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run,
            args=(self._server.run,),
            kwargs={"sockets": [self._listener]},
            daemon=True,
        )
        self._thread.start()
        ready = False
        try:
            while not self._server.started and self._thread.is_alive():
                self._thread.join(0.01)
            if self.on_ready is not None:
                self.on_ready(self.door.address)
            if self.open_browser:
                webbrowser.open(self.door.address)
            ready = True
        finally:
            if not ready:  # the server stops whatever stopped us here (Ctrl-C included)
                self.__exit__(None, None, None)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join()
        self._listener.close()
        self.door.close()

    def answer(
        self,
        session: TurnSession,
        view: dict,
        *,
        sign: bool = True,
        before: Sequence[dict] = (),
        drawn: Sequence = (),
        back: bool = False,
        story: Story | None = None,
        report_html: str | None = None,
    ) -> bool:
        """Ask `session` on the page until it is complete: signed on the page (`sign`, a
        whole turn) or, without `sign`, as soon as its last answer is given (one action of
        a record; `before`, the record's actions so far in words, `drawn` their events).
        `view` is the packet's: the choices are worded from it, as at the terminal.
        False if, with `back` (answers were given before it), the player pressed Undo
        with none of its answers left; Stopped (nothing written) if it pressed Stop.
        On a whole game's page, `story` and `report_html` are the packet's."""
        if report_html is not None:
            self.desk.report_html = report_html
        task = Asking(session, view, sign, list(before), list(drawn), back)
        return self._wait(task, story)

    def finish(self, closing: list[str], link: tuple[str, str] | None = None) -> None:
        """The page shows how the game or the turn ended (`closing`, lines of text; `link`,
        an address and its words, under them), and the server stays until the page has
        fetched it (at most FAREWELL seconds)."""
        self.desk.finish(closing, link)
        deadline = time.monotonic() + FAREWELL
        while self.desk.seen < self.desk.seq and time.monotonic() < deadline:
            if not self._thread.is_alive():
                return
            self._thread.join(0.05)

    def confirm(
        self, state: dict, comp: Components, side: str, lines: list[str], drawn: Sequence = ()
    ) -> bool:
        """A two-party record's actions (`lines`, in words) on the map of `state`, the copy
        they lead to (`comp` names its items): True when the player signs, False when it
        takes its last answer back (Undo); Stopped if it stops."""
        # a cast: the copy is a whole state, though play/two_party hands it over as a dict
        # (its hand without the cards not yet bound, `_known`)
        copy = cast(State, state)
        return self._wait(Confirming(copy, comp, side, lines, list(drawn)))

    def _wait(self, task: Asking | Confirming, story: Story | None = None) -> bool:
        """Put `task` on the page and wait until it is done: False if taken back."""
        desk = self.desk
        if not desk.put(task, story):
            raise Stopped(_("stopped: nothing written"))
        while not desk.handed.wait(WAIT) and self._thread.is_alive():
            pass
        if not desk.handed.is_set():
            raise RuntimeError("the page's server stopped before the turn was signed or stopped")
        if desk.outcome == STOPPED:
            raise Stopped(_("stopped: nothing written"))
        return not desk.taken_back
