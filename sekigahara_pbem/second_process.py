"""Starting a second Python process safely: `seki verify` reads ahead in one
(referee/read_ahead.py) and the search player plays half its rounds in one
(bot/rounds.py), and both may run inside a directory seki reads (a received archive, a
mail folder), whose files are hostile.

A process started with multiprocessing's `spawn` (a fresh interpreter, the same on every
platform) runs as `python -c ...`, which puts the current directory first on its import
path: a `multiprocessing/` folder there would run as our code before anything else
(issue 28, "Code execution"). It also runs the first process's main script again (as
`__mp_main__`), and the `seki` script imports the whole command line. `starting()` keeps
both off, and Ctrl-C with the first process alone.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager


def possible() -> bool:
    """Whether a second process can be kept from importing from the current directory:
    PYTHONSAFEPATH keeps it off the path, unless this interpreter ignores the environment
    (-E), which the process started inherits: then the work stays in one process."""
    return not sys.flags.ignore_environment


@contextmanager
def starting() -> Iterator[None]:
    """Start second processes inside this: no current directory on their path, not this
    process's main script, Ctrl-C ignored from their first instruction (POSIX)."""
    with ExitStack() as stack:
        stack.enter_context(_interrupts_ignored())
        stack.enter_context(_no_current_directory_on_path())
        stack.enter_context(no_main_script())
        yield


@contextmanager
def _no_current_directory_on_path() -> Iterator[None]:
    """PYTHONSAFEPATH=1 (-P) in the environment the second process (and a pool's resource
    tracker) is started with, and only there."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = before


@contextmanager
def no_main_script() -> Iterator[None]:
    """The second process started without running this one's main script again: spawn
    runs it there (as `__mp_main__`) for what it might define. A main module with neither
    a file nor a module name is not run; a pool starts its process at the first
    `submit`, which must come inside this."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ctrl-C ignored while the second process is started: a process started so keeps
    ignoring it (POSIX) from its first instruction, and the first process alone stops
    (`seki: interrupted`), rather than both with a traceback from the second."""
    if threading.current_thread() is not threading.main_thread():  # nothing to protect
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def deaf_to_interrupts() -> None:
    """In the second process: Ctrl-C ignored (where it did not inherit that: Windows)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
