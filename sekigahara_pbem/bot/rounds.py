"""The search player's rounds (bot/search.py), and the second process that plays half of
them on the machine's other core.

A round is independent of who plays it: round k samples its hidden world with a chooser
drawn from the decision's digest and k alone, so the same rounds give the same rows in
one process or two, and with a number of rounds (no time budget) the search answers the
same whatever the number of processes. The main process plays the even rounds, the
second the odd ones; the rows are merged by round index.

The second process is started lazily with the `spawn` context (a clean interpreter: no
state of the parent's copied, the same on every platform), with nothing imported from
the current directory, which may be one seki reads (second_process.py), loads the packaged component
set itself with the normal loader, and lives as long as its player: closed by
`close()`, when the player is collected, or at exit. A second process that dies is a
bug and is raised as one (`WorkerDied`), never papered over by playing on alone.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import NamedTuple

from .. import second_process
from ..refusal import SekiError
from ..rules import rng
from ..rules.components import Components
from ..rules.engine import apply
from ..rules.shadow import shadow_state
from ..rules.vocab import Malformed, RuleViolation
from .belief import Members
from .heuristic import HeuristicPlayer
from .rollout import rollout, value


class WorkerDied(SekiError):
    """The search's second process ended while the search needed it: a bug, never the
    player's to fix, so an internal error (exit 70; its own traceback, if it raised, is
    on standard error)."""


class Rollouts(NamedTuple):
    """What every round of a search plays with, in either process: the components, the
    game's options, the heuristic that plays both sides on, and how many movement phases
    a rollout looks ahead."""

    comp: Components
    game_options: dict
    policy: HeuristicPlayer
    horizon: int


def play_round(
    rollouts: Rollouts,
    v: dict,
    candidates: list[dict],
    digest: str,
    k: int,
    stopped: Callable[[], bool],
    members: Members | None = None,
) -> list[float] | None:
    """Each candidate's value on round `k`'s sampled state (the enemy's blocks dealt by
    the belief `members`, if given); None if `stopped()` said so before or during a
    rollout (a round cut short is not counted: its candidates would not share their
    luck)."""
    comp, game_options, policy, horizon = rollouts
    side = v["own"]["side"]
    chooser = rng.new(hashlib.sha256(f"{digest}:{k}".encode()).hexdigest())
    sample = shadow_state(comp, v, game_options, chooser, members)
    row = []
    for action in candidates:
        if stopped():
            return None
        try:
            start, _ = apply(sample, comp, side, action)
        except (RuleViolation, Malformed):  # cannot happen with listed options
            row.append(-math.inf)
            continue
        end = rollout(comp, start, policy, horizon, stopped)
        if stopped():
            return None
        row.append(value(comp, end, side))
    return row


class SecondProcess:
    """The odd rounds of each decision, played in a process of their own (module
    docstring). `begin` hands it a decision, `finish` collects its rows."""

    def __init__(self, game_options: dict, seed: str, horizon: int):
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(
            target=serve, args=(theirs, game_options, seed, horizon), daemon=True,
            name="seki-search-rounds",
        )  # fmt: skip
        with second_process.starting():  # nothing imported from the current directory
            self.process.start()
        theirs.close()  # ours only: its death then ends our reads (EOFError)
        self._closer = weakref.finalize(self, _close, self.process, self.conn)

    def begin(
        self,
        v: dict,
        candidates: list[dict],
        digest: str,
        rounds: int | None,
        members: Members | None = None,
    ) -> None:
        """Start the odd rounds below `rounds` (all until stopped if None)."""
        self._send(("search", v, candidates, digest, rounds, members))

    def finish(self, stop: bool) -> dict[int, list[float]]:
        """The rows of the rounds it completed, by round index; with `stop` it is told to
        stop first (the deadline has passed), else it is waited for."""
        if stop:
            self._send(("stop",))
        rows: dict[int, list[float]] = {}
        while True:
            message = self._receive()
            if message[0] == "done":
                return rows
            _, k, row = message
            rows[k] = row

    def _send(self, message: tuple) -> None:
        try:
            self.conn.send(message)
        except (BrokenPipeError, ConnectionResetError) as exc:  # boundary: its end of the
            # pipe closes only when the process ends
            raise self._died() from exc

    def _receive(self) -> tuple:
        try:
            return self.conn.recv()
        except (EOFError, ConnectionResetError) as exc:  # boundary: its end of the pipe
            # closes only when the process ends (EOF, or a reset if it died mid-message)
            raise self._died() from exc

    def _died(self) -> WorkerDied:
        self.process.join()
        return WorkerDied(f"the search's second process died (exit code {self.process.exitcode})")

    def close(self) -> None:
        """Stop the process and wait for it (a second call does nothing)."""
        self._closer()


def _close(process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
    if process.is_alive():
        conn.send(("quit",))
        process.join()
    conn.close()


def serve(conn: Connection, game_options: dict, seed: str, horizon: int) -> None:
    """The second process: plays the odd rounds of each decision it is sent, each row
    sent back as it is done, until told to stop (checked before each rollout) or the
    rounds run out, then "done"; ends at "quit". A "stop" read while idle came after its
    search had ended by itself, and is dropped. Interrupts are the parent's to handle
    (it closes this process), so a Ctrl-C prints one traceback, not two."""
    from ..protocol.component_files import load_components

    second_process.deaf_to_interrupts()
    comp = load_components()
    rollouts = Rollouts(comp, game_options, HeuristicPlayer(comp, game_options, seed), horizon)
    while True:
        message = conn.recv()
        if message[0] == "quit":
            return
        if message[0] == "search":
            _, v, candidates, digest, rounds, members = message
            k = 1
            while rounds is None or k < rounds:
                row = play_round(rollouts, v, candidates, digest, k, conn.poll, members)
                if row is None:
                    break
                conn.send(("row", k, row))
                k += 2
            conn.send(("done",))
