"""Reading a text report as a player would (tests that pick from what the report shows)."""

from __future__ import annotations

import itertools


def hand_in(report: str) -> list[str]:
    """The card ids of the report's hand line, which wraps when the hand is long."""
    first, *rest = report.split("Hand (")[1].split("\n")
    wrapped = itertools.takewhile(lambda line: line.startswith("    "), rest)
    paragraph = " ".join([first, *(line.strip() for line in wrapped)])
    return [c.split(" (")[0].strip() for c in paragraph.split(": ", 1)[1].split("; ")]
