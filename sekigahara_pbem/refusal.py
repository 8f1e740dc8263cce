"""One exception type for every input that is refused, with a named code (issue 12).

A refused input is the sender's to fix: the referee keeps it (sealed) and says why. Any
other exception met while adjudicating is a bug: the run stops and leaves the game as it
was, rather than telling a player to fix a file that was never wrong. The codes name the
cause for programs (the mail robot, two-party peers, tests) as boardgame.io's do; the
message says it for people, with the rule number where a rule refuses.

`Refusal` is a `ValueError` so that the commands, which turn any bad input into a one-line
error, catch it as before; the referee catches `Refusal` alone.
"""

from __future__ import annotations

MALFORMED = "malformed"  # not the document's shape: a field missing or of the wrong type
TOO_LARGE = "too_large"
WRONG_GAME = "wrong_game"  # for another game or another game definition
WRONG_SIDE = "wrong_side"  # signed by another key than the side it names
WRONG_VERSION = "wrong_version"  # another component set or an older format
BAD_SIGNATURE = "bad_signature"
BAD_SEAL = "bad_seal"
BAD_KEY = "bad_key"
NOT_STARTED = "not_started"  # the game has not started, or has already
NOT_ASKED = "not_asked"  # no decision is asked of that side now
STALE = "stale"  # answers a packet that is no longer the one to answer
ILLEGAL = "illegal"  # the rules refuse it (with the rule's number)
DUPLICATE = "duplicate"  # sent already: one join, one seed, one request, one answer
NOT_UNDOABLE = "not_undoable"
NO_EXTENSION = "no_extension"

CODES = frozenset(
    {
        MALFORMED, TOO_LARGE, WRONG_GAME, WRONG_SIDE, WRONG_VERSION, BAD_SIGNATURE, BAD_SEAL,
        BAD_KEY, NOT_STARTED, NOT_ASKED, STALE, ILLEGAL, DUPLICATE, NOT_UNDOABLE, NO_EXTENSION,
    }
)  # fmt: skip


class Refusal(ValueError):
    """An input refused for a named reason; `rule` is the rule number when a rule refuses."""

    code = MALFORMED

    def __init__(self, message: str, code: str | None = None, rule: str | None = None):
        super().__init__(message)
        if code is not None:
            if code not in CODES:
                raise TypeError(f"unknown refusal code {code!r}")
            self.code = code
        self.rule = rule
