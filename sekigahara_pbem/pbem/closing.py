"""The closing report of a finished game: who won and how, and the whole game's figures,
read from the public records only (so anyone with the archive gets the same report)."""

from __future__ import annotations

from collections import Counter

from . import chain
from . import clock as clocks
from .game import Definition
from .store import GameDir

COUNTED = {
    "battle_result": "battles",
    "siege_result": "sieges",
    "castle_falls": "castles taken",
    "challenge": "Loyalty Challenges",
    "overrun": "overruns",
    "retreat": "retreats",
    "muster": "musters",
    "move": "moves",
    "deadline_missed": "missed deadlines",
    "extension": "extensions",
    "takeback": "takebacks",
}


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
    """The closing report as text for a mail body (80 columns)."""
    lines = [f"Game {game_id} is over."]
    result = stats["result"]
    if result:
        why = result.get("reason") or result.get("how")
        lines.append(f"{result['winner']} wins ({result['how']}, rule {result['rule']}: {why}).")
    if stats["first"] and stats["last"]:
        span = clocks.parse_time(stats["last"], "last") - clocks.parse_time(stats["first"], "first")
        lines.append(f"Played from {stats['first']} to {stats['last']} ({span.days} days).")
    lines += [
        "",
        f"  records in the chain: {stats['records']}",
        f"  turn files accepted:  {stats['turn_files']}",
    ]
    lines += [f"  {name + ':':<21} {n}" for name, n in stats["counts"].items()]
    lines += [
        "",
        "The referee has published its seeds and keys (reveal.txt, attached). Anyone with",
        "the game's archive can now replay and check every draw and every order:",
        "  seki verify GAME-DIRECTORY",
    ]
    return "\n".join(lines) + "\n"
