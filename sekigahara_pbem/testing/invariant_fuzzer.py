"""Self-play as a fuzzer: complete random games with every invariant checked after every
action, and a summary of what happened in them (`seki simulate`).

A game is identified by its seed alone (random_player.playout), so the first violation is
reported as a seed and an action number that replay it exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from ..rules.components import Components
from ..rules.engine import pending
from ..rules.invariants import check_all, plan_answers
from ..rules.options import options
from ..rules.state_types import State
from ..rules.vocab import Malformed, RuleViolation
from .random_player import playout

COUNTED = {
    "battle": "battles",
    "siege": "sieges",
    "overrun": "overruns",
    "castle_falls": "castles taken",
    "retreat": "retreats",
    "no_combat": "castles held inside",
    "by_plan": "decisions answered by battle plans",
    "plan": "battle plans filed or withdrawn",
}


@dataclass
class Violation:
    seed: int
    action: int  # 1-based number of the action in that game
    problems: list[str]


@dataclass
class Summary:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    winners: Counter = field(default_factory=Counter)
    victories: Counter = field(default_factory=Counter)  # instant / points
    events: Counter = field(default_factory=Counter)
    violation: Violation | None = None


def _checks(comp: Components, summary: Summary, check: bool, found: list[str]):
    """The hook run after every action: count events, then check the invariants; the
    first problems are put in `found`, and stop the game."""

    def hook(before: State, after: State, side: str, action: dict, events: list) -> bool:
        summary.actions += 1
        for e in events:
            name = COUNTED.get(e["type"])
            if name:
                summary.events[name] += 1
            if e["type"] == "challenge":
                summary.events[f"challenges ({e['result']})"] += 1
        if not check:
            return False
        problems = check_all(after, comp) + plan_answers(comp, before, after, side, action, events)
        for d in pending(after):
            if not options(after, comp, d["side"]):
                problems.append(f"{d['side']} must decide {d['decision']} but has no option")
        found.extend(problems)
        return bool(problems)

    return hook


def simulate(comp: Components, games: int, seed: int, check: bool = True) -> Summary:
    """Play `games` games with seeds seed, seed+1, ...; stop at the first violation."""
    summary = Summary()
    found: list[str] = []  # the invariants broken: the game stops at the first
    hook = _checks(comp, summary, check, found)
    start = time.perf_counter()
    for s in range(seed, seed + games):
        before = summary.actions
        try:
            state = playout(comp, s, on_step=hook)
        except (RuleViolation, Malformed) as exc:
            summary.violation = Violation(
                s, summary.actions - before + 1, [f"a listed option was refused: {exc}"]
            )
        except Exception as exc:  # noqa: BLE001 - a crash is exactly what the fuzzer hunts
            summary.violation = Violation(
                s, summary.actions - before + 1, [f"crash: {type(exc).__name__}: {exc}"]
            )
        if found and summary.violation is None:
            summary.violation = Violation(s, summary.actions - before, found)
        if summary.violation is not None:
            break
        summary.games += 1
        result = state["result"]
        if result is None:
            summary.violation = Violation(s, summary.actions - before, ["game did not finish"])
            break
        summary.winners[result["winner"]] += 1
        summary.victories[result["how"]] += 1
    summary.seconds = time.perf_counter() - start
    return summary
