"""The page's door as a test walks through it (web/door.py): the forwarding file seki
says and gives the browser, the one-time key inside it, the cookie the key buys; and
`seki solo --web` run as a player runs it, with a browser that only says what it was
started with."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import threading
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import unquote, urlsplit

SEKI = Path(sys.executable).parent / "seki"
ADDRESS = "your game is on the board: "
BROWSER_SAYS = "browser argv "
FORWARD = re.compile(r'url=(http://127\.0\.0\.1:(\d+))(/enter\?key=[^"]+)"')


def file_of(address: str) -> Path:
    """The forwarding file an address names."""
    parts = urlsplit(address)
    assert parts.scheme == "file", address
    return Path(unquote(parts.path))


def door(address: str) -> tuple[str, int, str]:
    """The server's origin, its port, and the path with the key the file holds now."""
    found = FORWARD.search(file_of(address).read_text(encoding="utf-8"))
    assert found, address
    return found[1], int(found[2]), found[3]


def request(port: int, method: str, path: str, headers: dict, body: bytes | None = None):
    """One request to the page's server: its status, headers and body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def enter(address: str) -> dict[str, str]:
    """Through the door with the file's key, as the browser goes: the Cookie header the
    server set."""
    _, port, path = door(address)
    status, headers, _ = request(port, "GET", path, {})
    assert status == 200, status
    jar = SimpleCookie(headers["Set-Cookie"])
    return {"Cookie": "; ".join(f"{name}={c.value}" for name, c in jar.items())}


def post(address: str, what: str, body: bytes, headers: dict) -> tuple[int, dict]:
    """A POST of raw bytes to the page: its status and JSON answer."""
    _, port, _ = door(address)
    hdrs = {"Content-Type": "application/json", **headers}
    status, _, data = request(port, "POST", f"/{what}", hdrs, body)
    return status, json.loads(data)


class Solo:
    """`seki solo --web` in `tmp`, its first turn on the page (or, given, another seki
    command with its page and the line that says the page's address, its key directory
    `home`): the address it said, what the browser was started with (a script that says
    its arguments), its terminal. A context manager: the command is killed on leaving if
    it still runs."""

    def __init__(
        self,
        tmp: Path,
        args: tuple[str, ...] = ("solo", "g", "--web", "--side", "ishida", "--bot", "random"),
        said: str = ADDRESS,
        home: Path | None = None,
    ):
        run = tmp / "run"
        run.mkdir(mode=0o700)
        browser = tmp / "browser"
        browser.write_text(f'#!/bin/sh\necho "{BROWSER_SAYS}($#): $*"\n', encoding="utf-8")
        browser.chmod(0o755)
        env = dict(os.environ, SEKI_HOME=str(home or tmp / "home"), BROWSER=str(browser),
                   XDG_RUNTIME_DIR=str(run))  # fmt: skip
        self.process = subprocess.Popen(
            [str(SEKI), *args],
            cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        # what it says is read as it comes, by a thread: a whole game says more than a
        # pipe holds (a command blocked on its terminal never asks its next turn), and a
        # line that never comes fails the test instead of hanging it
        self._said = threading.Condition()
        self._rest = threading.Thread(target=self._drain, daemon=True)
        self._rest.start()
        try:
            self.address = self._line(said)
            self.browser = self._line(BROWSER_SAYS)  # the browser is started once it is said
        except BaseException:
            self.__exit__()
            raise

    def _drain(self) -> None:
        for line in self.process.stdout:
            with self._said:
                self.lines.append(line)
                self._said.notify_all()
        with self._said:
            self._said.notify_all()

    def _line(self, start: str, timeout: float = 60) -> str:
        """The rest of the first line said that starts with `start`."""

        def found() -> str | None:
            return next((ln[len(start) :].rstrip("\n") for ln in self.lines
                         if ln.startswith(start)), None)  # fmt: skip

        with self._said:
            self._said.wait_for(
                lambda: found() is not None or not self._rest.is_alive(), timeout=timeout
            )
            line = found()
        if line is None:
            raise AssertionError("".join(self.lines))
        return line

    def ended(self) -> tuple[int, str]:
        """Its exit status and all it said on its terminal."""
        status = self.process.wait(timeout=60)
        self._rest.join(timeout=10)
        return status, "".join(self.lines)

    def __enter__(self) -> Solo:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:  # a test that failed midway leaves no seki behind
            self.process.kill()
            self.process.wait()
        self._rest.join(timeout=10)
        self.process.stdout.close()
