"""Answers for `seki play`, chosen at random among the choices each question offers, by
running the same turn session the command runs on the same packet: as a `--choose`
script, or as the keys a person presses at the terminal."""

from __future__ import annotations

from pathlib import Path

from sekigahara_pbem.commands.common import load_identity
from sekigahara_pbem.play import console
from sekigahara_pbem.play.own import open_own_packet
from sekigahara_pbem.play.session import TurnSession
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.shadow import shadow_state


def answers(key: str, packet: Path, seed: int, plan: bool = False) -> tuple[list, list[dict]]:
    """[(answer text, question)] and the actions they build. The key directory is the
    one $SEKI_HOME names."""
    definition, opened = open_own_packet(packet, load_identity(key))
    comp = load_components()
    shadow = shadow_state(comp, opened.view, definition.options)
    session = TurnSession(shadow, comp, opened.side, plan=plan)
    chooser = rng.new(f"{seed:032x}")
    out = []
    while session.question is not None:
        q = session.question
        picks = _picks(q, chooser)
        shown = console.numbers(q)  # the numbers the player sees (a stack keeps its own)
        out.append(("+".join(str(shown[i - 1]) for i in picks) or "-", q))
        chosen = [q.choices[i - 1].value for i in picks]
        session.answer(chosen if q.pick != "one" else chosen[0])
    return out, session.actions


def _picks(q, chooser) -> list[int]:
    n = len(q.choices)
    values = [c.value for c in q.choices]
    wanted = [v for v in ("move", "level") if v in values]
    if q.key == "movement" and wanted and rng.below(chooser, 4):
        return [values.index(wanted[0]) + 1]  # a player who moves, mostly
    if q.key == "level":
        return [n - rng.below(chooser, min(n, 2))]  # limited or total movement
    if q.pick == "one":
        return [1 + rng.below(chooser, n)]
    need = q.pick if isinstance(q.pick, int) else 1
    if q.pick == "any":
        need = rng.below(chooser, min(n, q.limit or n) + 1)
    pool = list(range(1, n + 1))
    return [pool.pop(rng.below(chooser, len(pool))) for _ in range(min(need, n))]


def script(pairs: list) -> str:
    """The `--choose` form."""
    return ",".join(text for text, _ in pairs)


def keys(text: str, question) -> str:
    """What a person types at the terminal for this answer: the number as shown (two
    digits in a list numbered past 9); one no other choice begins with is taken at once;
    otherwise Enter ends the answer."""
    if text == "-":
        return "\r"
    if console.single(question):
        shown = console.keys(question)
        typed = shown[console.numbers(question).index(int(text))]
        alone = not any(n != typed and n.startswith(typed) for n in shown)
        return typed if alone else typed + "\r"
    return text.replace("+", " ") + "\r"
