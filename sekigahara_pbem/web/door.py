"""How the player's browser gets into the page without its secret on a command line.

A browser started by seki keeps its arguments for its whole life, and every local user
reads them in the process list (/proc/PID/cmdline): an address holding a token there
would hand the player's hand and answers to all of them. So the browser is given a file
instead, as notebook servers do: `page.html` in a directory of its own that only the
player may enter (0700, in $XDG_RUNTIME_DIR where there is one, else in the system's
temporary directory: per user on macOS and Windows), itself readable by the player
alone (0600). The file forwards to the server with a key that opens the door once: the
server then sets the cookie every later request needs (HttpOnly, SameSite=Strict) and
writes the file again with a fresh key, so the file opens the page again (a tab closed
by mistake) while a key once used is refused. The file and its directory are removed
when the page ends."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from html import escape
from pathlib import Path

from ..i18n import gettext as _


class Door:
    """The forwarding file of one page's server at `origin` (http://127.0.0.1:PORT), the
    key it holds now and the cookie's value that lets a browser in."""

    def __init__(self, origin: str):
        runtime = os.environ.get("XDG_RUNTIME_DIR", "")
        # mkdtemp makes the directory 0700 under a name no one can guess beforehand
        self.directory = Path(
            tempfile.mkdtemp(prefix="seki-page-", dir=runtime if os.path.isdir(runtime) else None)
        )
        self.file = self.directory / "page.html"
        self.origin = origin
        self.cookie = secrets.token_urlsafe(32)
        self._key = ""
        self._write()

    @property
    def address(self) -> str:
        """What the browser is given and the terminal says: the file's URI, no secret."""
        return self.file.as_uri()

    def enter(self, key: str) -> bool:
        """Whether `key` is the file's key; a key opens the door once, and the file then
        holds a fresh one."""
        if not self._key or not secrets.compare_digest(key.encode(), self._key.encode()):
            return False
        self._write()
        return True

    def close(self) -> None:
        """The page has ended: its key dies with the file."""
        self._key = ""
        shutil.rmtree(self.directory, ignore_errors=True)

    def _write(self) -> None:
        """A fresh key into the file, whole (written beside it, then moved into place)."""
        self._key = secrets.token_urlsafe(24)
        url = escape(f"{self.origin}/enter?key={self._key}")
        text = (
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="0;url={url}">'
            f"<title>seki</title></head>\n"
            f'<body><p><a href="{url}">{escape(_("Open the page"))}</a></p></body></html>\n'
        )
        part = self.directory / "page.html.part"
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(part, self.file)
