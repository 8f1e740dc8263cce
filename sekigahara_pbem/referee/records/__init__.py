"""The kinds of record, one module each (issue 12): the checks that admit an input are the
checks `seki verify` runs again on the archive, so the referee and verify cannot disagree,
and a two-party peer can admit the other's records with the same code.

- `opening`: joins, seeds and the setup record (rule 5);
- `turn`: a player's turn file (the engine's actions, battle plans, resignation, or an
  extension request);
- `deadline`: a missed deadline, answered by the game's no-move policy;
- `takeback`: a request, its answer, and the record restoring the state before.

`KINDS` is the one table of them, which the referee (`referee._one`: which kind admits a
document) and `verify` (`verify._Replay._step`: which kind replays a record) both read:
a kind of record is its module and one entry here.

`context` loads a game for adjudication; `writer` writes one record with everything
beside it, computed in full before any file is touched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...protocol import joins, takebacks, turns
from . import deadline, opening, takeback, turn

if TYPE_CHECKING:
    from ...protocol.chain import Record
    from ...protocol.game import Definition, Secrets
    from ...protocol.store import GameDir
    from ...rules.components import Components
    from ...rules.state_types import State
    from ..verify import Report
    from .context import Game
    from .writer import Draft


class Walk(Protocol):
    """What a kind's `replay` reads and keeps of `seki verify`'s walk along the chain
    (verify._Replay), and the checks it makes of every kind's record."""

    gd: GameDir
    definition: Definition
    comp: Components
    secrets: Secrets | None  # None before the reveal
    state: State | None  # the replayed state before the record (None before the reveal)
    states: dict[int, State]  # the replayed state after each record, by seq
    asked: Any  # the record before's `asked`, as it says (checked once revealed)
    clock: dict  # the record before's `clock`
    previous: Record | None  # the record before
    answered: dict[str, int]  # side -> the packet its last turn file answered
    extended: str | None  # the side that asked for an extension in this record
    bound_since: int | None  # the first record whose turn file names its game's definition

    def turn_file(self, where: str, seq: int, body: dict) -> tuple:
        """Record `seq`'s turn file opened (`read_ahead.archived`), perhaps read ahead."""

    def check_inputs(self, where: str, body: dict, expected: list[tuple[str, str]]) -> None:
        """The record's inputs are these (name, text) files, by hash."""

    def check_label(self, where: str, body: dict, label: str) -> None:
        """The record's label is the one the replay gives it."""


# (game, name, text, now) -> what was done, in the reader's words
Admit = Callable[["Game", str, str, str], str]
# (walk, where, seq, body, report) -> the draft of the record replayed, or None
Replay = Callable[[Walk, str, int, dict, "Report"], "Draft | None"]


@dataclass(frozen=True)
class RecordKind:
    """One kind of record: the `kind` its record's body names (None: it names none, as a
    turn file's record), the document formats the referee admits for it with the function
    that admits each, and the function `verify` calls to replay one of its records against
    the record before (None for the opening: its record is the first, replayed from the
    revealed seeds by verify itself). A replay raises `Discrepancy`; it returns the draft
    the referee wrote the record from (writer.Draft: the step replayed, the inputs, label
    and fields), which verify writes again and compares whole, or None before the reveal
    (no state to replay)."""

    kind: str | None
    admits: dict[str, Admit] = field(default_factory=dict)
    replay: Replay | None = None


KINDS = (  # in this order the referee looks for a document's format
    RecordKind(
        None,
        {
            joins.JOIN_FORMAT: opening.admit_join,
            joins.JOIN_FORMAT_V1: opening.admit_join,  # refused: it says to join again
            joins.SEED_FORMAT: opening.admit_seed,
        },
    ),
    RecordKind(
        takeback.KIND,
        {
            takebacks.REQUEST_FORMAT: takeback.admit_request,
            takebacks.CONSENT_FORMAT: takeback.admit_consent,
        },
        takeback.replay,
    ),
    RecordKind(deadline.KIND, {}, deadline.replay),  # no document: the referee's clock
    RecordKind(
        None,
        {f: turn.admit for f in (turns.TURN_FORMAT, *turns.SEALED_FORMATS)},
        turn.replay,
    ),
)


def admitting(lines: list[str]) -> Admit:
    """The function that admits a document whose signed body has these lines: the first
    kind's whose format it names, else a turn file's (its parse refuses a document that is
    none, naming the format it expects)."""
    for entry in KINDS:
        for name, admit in entry.admits.items():
            if f"format: {name}" in lines:
                return admit
    return turn.admit


def replaying(kind: object) -> Replay | None:
    """The function that replays a record (after the first) whose body names this `kind`
    (None: none), or None for a kind the table does not know."""
    for entry in KINDS:
        if entry.replay is not None and entry.kind == kind:
            return entry.replay
    return None
