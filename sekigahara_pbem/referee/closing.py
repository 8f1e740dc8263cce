"""The closing report of a finished game: who won and how, and the whole game's figures,
read from the public records only (so anyone with the archive gets the same report).

The figures are language-neutral (`statistics`); `closing_text` puts them in words in the
reader's language (i18n.using): the referee's robot mails each player in theirs. The
values taken from the records (the sides, how the game ended and why) stay as written.
"""

from __future__ import annotations

import shlex
import textwrap
from collections import Counter
from pathlib import Path

from .. import words
from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..protocol import chain
from ..protocol import clock as clocks
from ..protocol.game import Definition
from ..protocol.store import GameDir

# event type -> the figure's label (its key in the statistics, translated where shown)
COUNTED = {
    "battle_result": N_("battles"),
    "siege_result": N_("sieges"),
    "castle_falls": N_("castles taken"),
    "challenge": N_("Loyalty Challenges"),
    "overrun": N_("overruns"),
    "retreat": N_("retreats"),
    "muster": N_("musters"),
    "move": N_("moves"),
    "deadline_missed": N_("missed deadlines"),
    "extension": N_("extensions"),
    "takeback": N_("takebacks"),
}
WIDTH = 80


def statistics(gd: GameDir, definition: Definition) -> dict:
    """The figures of the whole game from its public records."""
    counts: Counter = Counter()
    result = None
    first = last = None
    turn_files = 0
    last_seq = gd.last_seq()
    for seq in range(1, last_seq + 1):
        body = chain.read_record(gd, definition, seq).body
        first = first or body["time"]
        last = body["time"]
        turn_files += sum(1 for i in body["inputs"] if str(i.get("file", "")).startswith("turns/"))
        for e in body["events"]:
            if e.get("type") in COUNTED:
                counts[COUNTED[e["type"]]] += 1
            if e.get("type") == "game_over":
                result = e
    return {
        "records": last_seq,
        "turn_files": turn_files,
        "first": first,
        "last": last,
        "result": result,
        "counts": dict(sorted(counts.items())),
    }


def closing_text(game_id: str, stats: dict) -> str:
    """The closing report as text for a mail body (80 columns), in the reader's language:
    the referee's reveal.txt is attached to the mail."""
    lines = _figures(game_id, stats)
    lines += _wrapped(
        _(
            "The referee has published its seeds and keys (reveal.txt, attached). Anyone with "
            "the game's archive can now replay and check every draw and every order:"
        )
    )
    lines.append("  seki verify GAME-DIRECTORY")
    return "\n".join(lines) + "\n"


def solo_closing_text(game_id: str, stats: dict, folder: Path, reveal: Path) -> str:
    """The closing report of a `seki solo` game, at the player's terminal: no mail, so it
    says where the secrets were written and the command that checks the game."""
    lines = _figures(game_id, stats)
    said = _(
        "Every seed and the game's state key are now published in {reveal}. Anyone with "
        "the folder {folder} can replay and check every draw and every order:"
    )
    lines += _wrapped(said.format(reveal=reveal, folder=folder))
    lines.append("  " + shlex.join(["seki", "verify", str(folder)]))
    return "\n".join(lines) + "\n"


def _figures(game_id: str, stats: dict) -> list[str]:
    """How the game ended and its figures, as lines, with a blank line after them."""
    lines = _wrapped(_("Game {game} is over.").format(game=game_id))
    result = stats["result"]
    if result:
        lines += _wrapped(words.outcome(result) + ".")
    if stats["first"] and stats["last"]:
        span = clocks.parse_time(stats["last"], "last") - clocks.parse_time(stats["first"], "first")
        text = ngettext(
            "Played from {first} to {last} ({days} day).",
            "Played from {first} to {last} ({days} days).",
            span.days,
        )
        lines += _wrapped(text.format(first=stats["first"], last=stats["last"], days=span.days))
    rows = [
        (_("records in the chain"), stats["records"]),
        (_("turn files accepted"), stats["turn_files"]),
        *[(_(name), n) for name, n in stats["counts"].items()],
    ]
    width = max(len(label) + 1 for label, _n in rows)
    return [*lines, "", *[f"  {label + ':':<{width}} {n}" for label, n in rows], ""]


def _wrapped(text: str) -> list[str]:
    """A paragraph as lines of at most 80 columns (a long value may stand alone)."""
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False) or [""]
