"""`seki demo --two-party`: two bots play a two-party game through the real files, each
in its own directory with only its own key, then both reveal and each side verifies."""

from __future__ import annotations

import shutil
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..bot import make_player
from ..crypto.keys import generate
from ..protocol.clock import format_time
from ..protocol.component_files import carry, component_set
from ..rules.vocab import ISHIDA, SIDES, other
from . import files
from .match import player_chooser, take_turns
from .side import Side, verify

GAME_ID = "demo-2p"
START = datetime(2026, 11, 23, tzinfo=UTC)


class Clock:
    """The demo's time: a record every ten minutes from START."""

    def __init__(self) -> None:
        self.ticks = 0

    def now(self) -> str:
        self.ticks += 1
        return format_time(START + timedelta(minutes=10 * self.ticks))


MAX_RECORDS = 4000


@dataclass
class TwoPartyDemo:
    dirs: dict[str, Path]
    records: int = 0
    result: dict | None = None
    weeks: int = 0
    sizes: list[int] = field(default_factory=list)  # bytes per record
    receive_ms: list[float] = field(default_factory=list)
    retraced: int = 0

    @property
    def median_receive_ms(self) -> float:
        return statistics.median(self.receive_ms) if self.receive_ms else 0.0


def run(
    root: Path, bot: str = "heuristic", seed: str = "demo", components: Path | None = None
) -> TwoPartyDemo:
    """Play, reveal and verify; `root/ishida` and `root/tokugawa` are the two sides, each
    carrying the component set in `components` (default: the packaged set)."""
    carried = component_set(components)
    comp = carried.components
    keys = {s: generate(s) for s in SIDES}
    game_text = files.make_game(
        GAME_ID, carried.hash, {}, {s: k.public for s, k in keys.items()}, keys[ISHIDA]
    )
    game = files.read_game(game_text, "game.txt")
    sides = {}
    for s in SIDES:
        d = root / s
        d.mkdir(parents=True, exist_ok=True)
        (d / "game.txt").write_text(game_text, encoding="utf-8")
        carry(d, carried)
        sides[s] = Side(d, game, keys[s], comp)
    demo = TwoPartyDemo({s: root / s for s in SIDES})
    choosers = {s: player_chooser(make_player(bot, comp, {}, f"{seed}-{s}")) for s in SIDES}
    clock = Clock()
    take_turns(
        lambda s: sides[s].join(clock.now()),
        lambda s: sides[s].turn(choosers[s], clock.now()),
        lambda reader, text: _deliver(demo, sides[reader], text, clock.now()),
        lambda s: sides[s].result() is not None,
        MAX_RECORDS,
    )
    demo.records = len(sides[ISHIDA].records())
    demo.result = sides[ISHIDA].result()
    demo.weeks = sides[ISHIDA].load().public["week"]
    for s in SIDES:
        sides[s].reveal(clock.now())
    for s in SIDES:
        shutil.copy(root / s / "reveals" / f"{s}.txt", root / other(s) / "reveals" / f"{s}.txt")
    for s in SIDES:
        demo.retraced = verify(root / s).retraced
    return demo


def _deliver(demo: TwoPartyDemo, reader: Side, text: str, now: str) -> None:
    """`reader` takes in `text` at `now` by its clock."""
    demo.sizes.append(len(text.encode()))
    start = time.perf_counter()
    reader.receive(text, "mail", now)
    demo.receive_ms.append(1000 * (time.perf_counter() - start))
