"""The closing report of a finished game: who won and how, and the whole game's figures,
read from the public records only (so anyone with the archive gets the same report)."""

from __future__ import annotations

from collections import Counter

from ..i18n import N_
from ..i18n import gettext as _
from . import chain
from . import clock as clocks
from .game import Definition
from .store import GameDir

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
}  # the figures' names (English: the keys of statistics()["counts"]), shown translated


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
    """The closing report as text for a mail body (80 columns), in the reader's language."""
    lines = [_("Game {game} is over.").format(game=game_id)]
    result = stats["result"]
    if result:
        why = result.get("reason") or result.get("how")
        text = _("{side} wins ({how}, rule {rule}: {why}).")
        lines.append(text.format(side=result["winner"], how=result["how"], rule=result["rule"],
                                 why=why))  # fmt: skip
    if stats["first"] and stats["last"]:
        span = clocks.parse_time(stats["last"], "last") - clocks.parse_time(stats["first"], "first")
        text = _("Played from {first} to {last} ({days} days).")
        lines.append(text.format(first=stats["first"], last=stats["last"], days=span.days))
    figures = [
        (_("records in the chain:"), stats["records"]),
        (_("turn files accepted:"), stats["turn_files"]),
        *((_(name) + ":", n) for name, n in stats["counts"].items()),
    ]
    width = max(21, *(len(label) for label, _n in figures))
    lines += ["", *(f"  {label:<{width}} {n}" for label, n in figures)]
    lines += [
        "",
        _("The referee has published its seeds and keys (reveal.txt, attached). Anyone with"),
        _("the game's archive can now replay and check every draw and every order:"),
        "  seki verify GAME-DIRECTORY",
    ]
    return "\n".join(lines) + "\n"
