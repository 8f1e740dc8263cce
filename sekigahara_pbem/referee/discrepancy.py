"""What `seki verify` raises when an archive does not verify (referee/verify.py)."""

from __future__ import annotations

from ..refusal import ExitStatus, Refusal


class Discrepancy(Refusal):
    """The archive does not verify; the message names the file and what differs. Like a
    refusal it keeps its template and values, so `seki verify` says it in the reader's
    language (i18n.explain); its English text is the same in every language."""

    exit_status = ExitStatus.NOT_VERIFIED


def wrapped(where: str | None, exc: BaseException) -> Discrepancy:
    """Another exception's reason (a refusal put in words the same way), after `where`."""
    return Discrepancy("{reason}", at=where, reason=exc)
