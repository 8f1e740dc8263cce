"""Where the enemy's hidden blocks are, as far as one side can tell from everything it has
been shown (issue 39, "What it knows of the enemy").

A view shows the enemy only as counts: so many blocks here, so many in the Recruitment
Box and the bag. A player who owns the game knows more. Every block with a setup symbol
starts at the one location printed with it (5.2.1), so at the start the enemy's
protagonist is no mystery; a muster and a Mōri arrival name the blocks that arrive (7.2,
9.3); a deployment shows blocks where they fight (8.2.3), and a loss or an overrun
which ones are gone. Between those, a stack that sends part of itself away takes each
of its blocks with it at the share it sent: a player who saw Ieyasu's stack of five send
two blocks north believes him still at Edo three times in five.

`Belief` keeps, for each enemy block, a weight for each place it may be (a map location,
the Recruitment Box, the bag), moved by the events as the side sees them (`observe`) and
fitted to the counts of each view it decides from (`fit`: iterative proportional
fitting, so the places' expected counts are the view's and each block's weights sum to
one). A small weight for every place a block could still be keeps a guess the events
led astray from ever ruling the truth out. It reads nothing but the side's own events
and views, as a person across the table would.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.components import Components
from ..rules.vocab import BAG, MORI_BOX, RECRUIT, other

DOUBT = 0.05  # a block's weight spread over the places the events say it cannot be at
LEADER = "leader "  # how a move event names the leader that gave leadership (7.3.4)
ROUNDS = 30  # rounds of fitting at most
CLOSE = 0.01  # ... ended once every block's chances sum to one within this

Members = dict[str, dict[str, float]]  # a fitted belief: place -> {enemy block: chance}


class Belief:
    """One side's belief over the enemy's hidden blocks."""

    def __init__(self, comp: Components, side: str):
        self.comp, self.side, self.enemy = comp, side, other(side)
        symbols = {loc.setup_symbol: loc.id for loc in comp.locations.values() if loc.setup_symbol}
        if comp.mori_box_symbol:
            symbols[comp.mori_box_symbol] = MORI_BOX
        # block -> place -> weight; a block absent is known not to be hidden (shown,
        # eliminated, in the Mōri Box)
        self.weights: dict[str, dict[str, float]] = {}
        for b in comp.side_blocks(self.enemy):
            setup = comp.blocks[b].setup
            place = BAG if setup is None else symbols.get(setup, BAG)
            self.weights[b] = {place: 1.0}
        # blocks known to be out of the bag: never back in it (they leave the map only
        # eliminated)
        self.drawn: set[str] = {b for b, w in self.weights.items() if BAG not in w}

    def observe(self, events: list) -> None:
        """Move the weights by events as this side saw them (redacted for it). An event
        of a shape the engine never writes (a packet is another's file) is passed over:
        the belief is a guess, and the view's counts correct it at the next fit."""
        for e in events:
            if not isinstance(e, dict):
                continue
            kind = str(e.get("type"))
            handler = _HANDLERS.get(kind)
            if handler is not None and (e.get("side") == self.enemy or kind in _EITHER):
                handler(self, _Event(self.comp, e))

    def fit(self, v: dict) -> Members:
        """The belief made to agree with view `v`: place -> {block: chance it is there},
        the places' expected counts the view's; kept as the belief to move on from."""
        face_up = self._face_up(v)
        hidden = self._hidden(v, face_up)
        counts = {loc: c[self.enemy] for loc, c in v["stacks"].items() if c.get(self.enemy)}
        counts[RECRUIT] = v["recruit"][self.enemy]
        counts[BAG] = v["bags"][self.enemy]
        counts = {p: n for p, n in counts.items() if n > 0}
        for b, fixed in face_up.items():
            counts[fixed] = counts.get(fixed, 0) - 1
            self.weights[b] = {fixed: 1.0}
        rows = {b: self._doubted(b, counts) for b in hidden}
        for _ in range(ROUNDS):
            if _scale_places(rows, counts) <= CLOSE:
                break
            _scale_blocks(rows)
        self.weights = {b: w for b, w in self.weights.items() if b not in hidden}
        self.weights.update(rows)
        out: Members = {}
        for b, row in self.weights.items():
            for place, w in row.items():
                out.setdefault(place, {})[b] = w
        return out

    def _hidden(self, v: dict, face_up: dict[str, str]) -> set[str]:
        """The enemy's blocks the view does not show: not eliminated, not in the Mōri Box
        (both dropped from the belief), not deployed face up in the battle under way."""
        for b in (*v["eliminated"], *v["mori_box"]):
            self.weights.pop(b, None)
        return {b for b in self.weights if b not in face_up}

    def _face_up(self, v: dict) -> dict[str, str]:
        """The enemy's blocks deployed in the battle under way and still on the map."""
        fight = (v.get("combat") or {}).get("fight") or {}
        gone = set(v["eliminated"])
        return {
            b: fight["location"]
            for d in fight.get("deployments", [])
            for b in d["blocks"]
            if b in self.comp.blocks and self.comp.blocks[b].side == self.enemy and b not in gone
        }

    def _doubted(self, b: str, counts: dict[str, int]) -> dict[str, float]:
        """Block `b`'s weights with doubt added at every place it could still be: a block
        out of the bag never goes back to it (blocks leave the map only eliminated)."""
        row = {p: w for p, w in self.weights.get(b, {}).items() if counts.get(p, 0) > 0}
        places = [p for p in counts if counts[p] > 0 and not (p == BAG and b in self.drawn)]
        for p in places:
            row[p] = row.get(p, 0.0) + DOUBT / len(places)
        return row

    # -- the events ----------------------------------------------------------------

    def _share(self, source: str | None, target: str | None, count: int) -> None:
        """`count` of the enemy's blocks at `source` went to `target`, which ones unseen:
        each block there goes with the share sent."""
        if source is None or target is None:
            return
        there = sum(row.get(source, 0.0) for row in self.weights.values())
        if there <= 0 or count <= 0:
            return
        share = min(1.0, count / there)
        for row in self.weights.values():
            w = row.get(source, 0.0)
            if w:
                row[source] = w * (1 - share)
                row[target] = row.get(target, 0.0) + w * share

    def _known(self, blocks: list[str], place: str | None) -> None:
        for b in blocks:
            if place is not None and self.comp.blocks[b].side == self.enemy:
                self.weights[b] = {place: 1.0}
                self.drawn.add(b)

    def _gone(self, blocks: list[str]) -> None:
        for b in blocks:
            self.weights.pop(b, None)


class _Event:
    """An event's fields as the belief reads them, each checked: a place the board has,
    a count, blocks the component set has; nothing at all where the field is not so."""

    def __init__(self, comp: Components, fields: dict):
        self.comp, self.fields = comp, fields

    def place(self, key: str) -> str | None:
        value = self.fields.get(key)
        return value if isinstance(value, str) and value in self.comp.locations else None

    def count(self, key: str = "count") -> int:
        value = self.fields.get(key)
        return value if type(value) is int and value > 0 else 0

    def blocks(self, key: str) -> list[str]:
        value = self.fields.get(key)
        return self.blocks_named(value) if isinstance(value, list) else []

    def blocks_named(self, names: list) -> list[str]:
        return [b for b in names if isinstance(b, str) and b in self.comp.blocks]

    def groups(self) -> list[tuple[str, int]]:
        """A move's groups as (where each ended, how many), as the enemy's show them."""
        groups = self.fields.get("groups")
        out = []
        for group in groups if isinstance(groups, list) else []:
            if not isinstance(group, dict):
                continue
            path, count = group.get("path"), _Event(self.comp, group).count()
            end = path[-1] if isinstance(path, list) and path else None
            if isinstance(end, str) and end in self.comp.locations and count:
                out.append((end, count))
        return out


def _scale_places(rows: dict[str, dict[str, float]], counts: dict[str, int]) -> float:
    """Scale each place's weights to its count; how far the blocks' totals then are from
    one (0.0 when there is nothing to scale)."""
    totals: dict[str, float] = {}
    for row in rows.values():
        for p, w in row.items():
            totals[p] = totals.get(p, 0.0) + w
    factors = {p: counts.get(p, 0) / t if t > 0 else 0.0 for p, t in totals.items()}
    worst = 0.0
    for row in rows.values():
        total = 0.0
        for p in row:
            row[p] *= factors[p]
            total += row[p]
        worst = max(worst, abs(total - 1.0))
    return worst


def _scale_blocks(rows: dict[str, dict[str, float]]) -> None:
    for row in rows.values():
        total = sum(row.values())
        if total > 0:
            for p in row:
                row[p] /= total


def _move(belief: Belief, e: _Event) -> None:
    """A stack move: a leader that gave its leadership was at the origin (7.3.4), and
    each group took its share of what was there."""
    source = e.place("from")
    lead = e.fields.get("leadership")
    if isinstance(lead, str) and lead.startswith(LEADER):
        belief._known(e.blocks_named([lead[len(LEADER) :]]), source)
    for target, count in e.groups():
        belief._share(source, target, count)


def _retreat(belief: Belief, e: _Event) -> None:
    shown = e.blocks("blocks")
    if shown:
        belief._known(shown, e.place("to"))
    else:
        belief._share(e.place("location"), e.place("to"), e.count())


_EITHER = frozenset(("overrun",))  # events about the enemy's blocks whoever moved
_HANDLERS: dict[str, Callable[[Belief, _Event], None]] = {
    "setup_random": lambda b, e: b._share(BAG, e.place("location"), e.count()),
    "reinforcements": lambda b, e: b._share(BAG, RECRUIT, e.count()),
    "muster": lambda b, e: b._known(e.blocks("blocks"), e.place("to")),
    "mori": lambda b, e: b._known(e.blocks("blocks"), e.place("to")),
    "deploy": lambda b, e: b._known(e.blocks("blocks"), e.place("location")),
    "move": _move,
    "retreat": _retreat,
    "losses": lambda b, e: b._gone(e.blocks("units")),
    "overrun": lambda b, e: b._gone(e.blocks("eliminated")),
}
