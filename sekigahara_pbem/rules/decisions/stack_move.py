"""A stack move composed as a person thinks of it (7.3): pick the stack, pick which blocks
go, then the path one location at a time, dropping blocks off or splitting the stack on
the way; the result is one `move` action (rules/movement/movement.py).

Every step offered is checked by applying the move built so far, extended by that step,
to a copy of the state with the real handler, so nothing is offered that the rules would
refuse; a step that needs a force march (7.3.3) says so. The stack's columns are walked
one after the other: the column that carries on first, then each split-off column from
where it left (docs/rulings.md, "Guided moves").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..components import Components
from ..movement.movement import capacity, leadership, move
from ..state import clone, phase_of
from ..state_types import State
from ..vocab import Malformed, RuleViolation
from .kind import Choice, Dialogue, Question

STOP, DROP, SPLIT = "stop", "drop", "split"  # the dialogue's words besides locations


@dataclass
class Column:
    """Blocks travelling together, the path they took, and the card of their force march."""

    blocks: list[str]
    path: list[str] = field(default_factory=list)
    march: str | None = None


@dataclass(frozen=True)
class Stack:
    """The stack move being built: whose, from where, and the leader claimed (7.3.4)."""

    state: State
    comp: Components
    side: str
    origin: str
    leader: str | None = None

    def steps(self, others: list[Column], col: Column, counted: bool = True) -> list[Choice]:
        """The next locations the column may go on to, each (if `counted`) with the steps
        it could still take after it, or marked as needing a force march."""
        where = col.path[-1] if col.path else self.origin
        used = {o.march for o in others}
        spare = [c for c in self.state["cards"][self.side]["hand"] if c not in used]
        out = []
        for nxt in self.comp.adjacent[where]:
            ahead = Column(col.blocks, col.path + [nxt], col.march)
            if self.legal(others + [ahead]):
                out.append(Choice(nxt, {"left": self.further(others, ahead)} if counted else {}))
            elif col.march is None and spare:
                ahead.march = spare[0]
                if self.legal(others + [ahead]):
                    out.append(Choice((nxt, True), {"force_march": True, "left": 0}))
        return out

    def further(self, others: list[Column], col: Column) -> int:
        """How many more steps the column could take after its path so far without another
        card, each one asked of the engine: the reach left (`left`) where the roads on
        keep the highway bonus, are not used yet (7.3.1) and no enemy stops it (7.3.2)."""
        bound = self.left(others, col)
        best = 0
        for nxt in self.comp.adjacent[col.path[-1]] if bound > 0 else ():
            ahead = Column(col.blocks, col.path + [nxt], col.march)
            if self.legal(others + [ahead]):
                best = max(best, 1 + self.further(others, ahead))
                if best >= bound:
                    break
        return best

    def left(self, others: list[Column], col: Column) -> int:
        """7.3.3-7.3.6: the column's remaining movement after its path so far. A column
        whose path is another's joins its group (`action`), force march and all: a block
        split off a force-marched group that catches it up again moves with its march."""
        first = sum(len(c.blocks) for c in [*others, col] if c.path and c.path[0] == col.path[0])
        highway, prev = True, self.origin
        for loc in col.path:
            highway = highway and bool(self.comp.road(prev, loc))
            prev = loc
        free = leadership(self.state, self.comp, self.side, self.origin, None) is not None
        lead = self.leader is not None or free
        march = col.march is not None or any(o.march and o.path == col.path for o in others)
        return capacity(highway, lead, march, first) - len(col.path)

    def action(self, columns: list[Column]) -> dict:
        """The move action: columns that ended at the same place form one group."""
        groups: dict[tuple[str, ...], dict] = {}
        for col in columns:
            if not col.path or not col.blocks:
                continue  # blocks split off that stayed where they were
            group = groups.setdefault(tuple(col.path), {"blocks": [], "path": list(col.path)})
            group["blocks"] += col.blocks
            if col.march:
                group["force_march"] = col.march
        act: dict = {"type": "move", "from": self.origin, "groups": list(groups.values())}
        if self.leader is not None:
            act["leader"] = self.leader
        return act

    def legal(self, columns: list[Column]) -> bool:
        """Whether the move made of these columns is one the rules accept now."""
        try:
            move(clone(self.state), self.comp, self.side, self.action(columns), [])
        except (RuleViolation, Malformed):
            return False
        return True


def movable_stacks(state: State, comp: Components, side: str) -> dict[str, list[str]]:
    """Locations whose stack may still move, with the blocks that may go (7.3.1, 8.9.6): a
    stack too large to move whole may still send a smaller group (7.3.5), so a stack is
    listed when one of its blocks alone could take a step."""
    phase = phase_of(state)
    stacks: dict[str, list[str]] = {}
    for b, where in sorted(state["blocks"].items()):
        if where not in comp.locations or comp.blocks[b].side != side:
            continue
        if where in phase["sources"] or state["besieged"].get(where) == side:
            continue
        if b not in phase["moved"] and b not in phase["arrived"]:
            stacks.setdefault(where, []).append(b)
    return {
        loc: blocks
        for loc, blocks in sorted(stacks.items())
        if Stack(state, comp, side, loc, _any_leader(state, comp, side, loc)).steps(
            [], Column(blocks[:1]), counted=False
        )
    }


def stack_numbers(state: State, comp: Components, side: str, stacks: list[str]) -> tuple[int, ...]:
    """The number each stack is asked by: its place among the side's stacks as the phase
    began (where its unmoved blocks stand, and where stacks moved from), so a stack keeps
    its number while others move and a number typed for one never reaches another; a
    stack that was not there (a muster) comes after them."""
    phase = state["phase"]
    moved = set(phase["moved"]) if phase else set()
    standing = {
        where
        for b, where in state["blocks"].items()
        if where in comp.locations and comp.blocks[b].side == side and b not in moved
    }
    began = sorted(standing | set(phase["sources"] if phase else ()))
    later = [loc for loc in stacks if loc not in began]
    return tuple(
        began.index(loc) + 1 if loc in began else len(began) + later.index(loc) + 1
        for loc in stacks
    )


def _any_leader(state: State, comp: Components, side: str, origin: str) -> str | None:
    """A leader at the origin that could give the leadership bonus (7.3.4), if needed."""
    if leadership(state, comp, side, origin, None) is not None:
        return None
    here = [b for b, w in sorted(state["blocks"].items()) if w == origin]
    return next((b for b in here if comp.blocks[b].side == side and comp.blocks[b].leader), None)


def compose_move(state: State, comp: Components, side: str) -> Dialogue:
    """The dialogue of one stack move."""
    stacks = movable_stacks(state, comp, side)
    origin = yield Question(
        "stack",
        tuple(Choice(loc, {"blocks": len(b)}) for loc, b in stacks.items()),
        numbers=stack_numbers(state, comp, side, list(stacks)),
    )
    going = stacks[origin]
    if len(going) > 1:
        # Enter moves all but the protagonist (2.1: its loss loses the game): a player
        # moving Osaka's army took Mitsunari along by pressing Enter
        protagonist = comp.protagonist(side)
        default = [b for b in going if b != protagonist]
        blocks = tuple(Choice(b) for b in going)
        going = list((yield Question("blocks", blocks, "some", default)))
    leader = None
    here = [b for b, w in sorted(state["blocks"].items()) if w == origin]
    leaders = [b for b in here if comp.blocks[b].side == side and comp.blocks[b].leader]
    if leaders and leadership(state, comp, side, origin, None) is None:
        leader = yield Question("leader", tuple(Choice(x) for x in [None, *leaders]), default=None)
    stack = Stack(state, comp, side, origin, leader)
    done: list[Column] = []
    todo = [Column(going)]
    first = True
    while todo:
        col = todo.pop(0)
        while True:
            step = yield _step_question(stack, done + todo, col, first)
            if step == STOP:
                done.append(col)
                first = False
                break
            if step in (DROP, SPLIT):
                blocks = tuple(Choice(b) for b in col.blocks)
                part = list((yield Question(step, blocks, "some", None, len(col.blocks) - 1)))
                col.blocks = [b for b in col.blocks if b not in part]
                (done if step == DROP else todo).append(Column(part, list(col.path)))
                continue
            loc, march = step if isinstance(step, tuple) else (step, False)
            if march:
                used = {c.march for c in done + todo if c.march}
                cards = [c for c in sorted(state["cards"][side]["hand"]) if c not in used]
                col.march = yield Question("march_card", tuple(Choice(c) for c in cards))
            col.path.append(loc)
    return stack.action(done)


def _part_goes_on(stack: Stack, others: list[Column], col: Column) -> bool:
    """Whether a block of a column that cannot go on whole may take a step alone, the
    rest left where it is: a smaller group may move further (7.3.5)."""
    for b in col.blocks:
        rest = Column([x for x in col.blocks if x != b], list(col.path), col.march)
        alone = Column([b], list(col.path), col.march)
        if stack.steps([*others, rest], alone, counted=False):
            return True
    return False


def _step_question(stack: Stack, others: list[Column], col: Column, first: bool) -> Question:
    """Where next: stop, a location, drop blocks off here, or split the column. The first
    column must go somewhere; a split-off column may stay where it was left. Stop comes
    first whenever it is offered, so its number never moves (at the terminal, `1` stops;
    it once moved behind the locations and `1` gave a force march)."""
    choices = [Choice(STOP)] if col.path or not first else []
    ahead = stack.steps(others, col)
    choices += ahead
    # dropping blocks off or splitting the column only where some of it may go on: not
    # where an enemy stops it (7.3.2) or no block has a road left (7.3.1, 7.3.3)
    parted = len(col.blocks) > 1 and (bool(ahead) or _part_goes_on(stack, others, col))
    if col.path and parted:
        choices.append(Choice(DROP))
    if parted:
        choices.append(Choice(SPLIT))
    where = col.path[-1] if col.path else stack.origin
    context = {"at": where, "blocks": list(col.blocks), "path": list(col.path)}
    return Question("step", tuple(choices), default=STOP if col.path else None, context=context)
