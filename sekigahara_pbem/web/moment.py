"""What the page shows at one moment of the turn, as JSON for static/page.js: the map as
the turn's actions so far leave it, the hand, the actions so far, and the question to
answer with its choices worded as the terminal words them (play/labels.py, on the view
play/console.view_at gives), each with the place, the card or the block tile that also
answers it (targets.py), and the stack move being built, whose path the page draws.

The map is drawn from the side's view of the shadow state after the actions so far, with
those actions' own events (their arrows and marks) and the story's (what happened since
the player's last turn: the opponent's moves, retreats, battles), as the HTML report draws
a packet with the story before it; the story's lines are listed beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

import yaml

from ..i18n import gettext as _
from ..play import labels
from ..play.console import how_many, view_at
from ..play.session import TurnSession
from ..reports import model, svgmap
from ..reports import names as n
from ..reports.choices import describe_option
from ..reports.env import environment
from ..reports.events import describe
from ..rules.components import Components
from ..rules.decisions import Kind, Question, current
from ..rules.decisions.movement import reach
from ..rules.decisions.stack_move import STOP
from ..rules.engine import apply
from ..rules.shadow import unforeseen_at
from ..rules.state_types import State
from ..rules.views import redact_event, view
from . import targets


class Story(NamedTuple):
    """What happened since the player's last turn: the events drawn on the map, and in
    words, record by record (`seq`, `title`, `lines`)."""

    events: list
    parts: list[dict]


def story(told: Sequence[tuple[int, list]], comp: Components, packet_view: dict) -> Story:
    """The story of these records ((seq, events), in order), worded as the report words
    it (reports/events.describe): the reader's own moves end where its view has them."""
    own = packet_view.get("own") or {}
    own_at = {b: loc for loc, bs in own.get("blocks", {}).items() for b in bs}
    parts = [
        {
            "seq": seq,
            "title": _("Record %(seq)s:") % {"seq": seq},
            "lines": [describe(e, comp, own_at) for e in events] or [_("nothing new")],
        }
        for seq, events in told
    ]
    return Story([e for _seq, events in told for e in events], parts)


def moment(
    session: TurnSession,
    comp: Components,
    packet_view: dict,
    seq: int,
    drawn: Sequence,
    told: Story,
) -> dict:
    """The page's data now; `seq` numbers the moment, so an answer given to an older one
    (a double click, a second tab) is refused rather than taken for the next question.
    `drawn`: events of earlier actions (a two-party record's) to draw with the story's."""
    side = session.side
    question = session.question
    state, done, unseen = known(session, comp)
    events = [*told.events, *drawn, *done]
    return {
        "seq": seq,
        "map": board(state, events, comp, side),
        "places": svgmap.positions(comp),
        "hand": hand(state, comp, side),
        "situation": situation(state, comp, side),
        "turn": turn(session, comp, packet_view),
        "story": told.parts,
        "question": None if question is None else ask(session, question, comp, packet_view),
        "move": building(session),
        "cut": None if session.cut is None else labels.cut(session.cut),
        "unseen": None if unseen is None else labels.unseen(unseen),
    }


def record(
    state: State,
    comp: Components,
    side: str,
    lines: list[str],
    drawn: Sequence,
    told: Story,
    seq: int,
) -> dict:
    """The page's data for a two-party record to sign or stop: its actions in words, on
    the map of the copy they lead to."""
    return {
        "seq": seq,
        "map": board(state, [*told.events, *drawn], comp, side),
        "places": svgmap.positions(comp),
        "hand": hand(state, comp, side),
        "situation": situation(state, comp, side),
        "turn": [{"text": line} for line in lines],
        "story": told.parts,
        "question": None,
        "record": True,
    }


def known(session: TurnSession, comp: Components) -> tuple[State, list, str | None]:
    """The state the page shows, the events of the actions chosen so far drawn on it (as
    the side sees them), and the type of the event the page stops short of, if any.
    Where the last action ran into what only the referee knows (`shadow.unforeseen`: a
    card or block drawn, an overrun, a battle's result), the state before that action,
    and its events up to that one: the shadow's guess is not the game (the page showed a
    hand of cards drawn from a made-up deck after a discard at the hand limit, 6.2)."""
    side = session.side
    state, events, unseen = session.state, [], None
    for start, action, _after in session.done:
        raw = apply(start.state, comp, side, action)[1]
        cut = unforeseen_at(raw, side)
        if cut is not None:  # the session stops there: the last action of the turn
            state, unseen, raw = start.state, str(raw[cut]["type"]), raw[:cut]
        events += [redact_event(e, side) for e in raw]
    return state, events, unseen


def board(state: State, events: Sequence, comp: Components, side: str) -> str:
    """The SVG map (templates/map.svg.j2) of the side's view of `state`, with `events`
    drawn on it."""
    m = svgmap.build(view(state, comp, side), list(events), comp, side)
    m["reach"] = {}  # the page draws its own rings, as clickable targets
    return environment().get_template("map.svg.j2").render(m=m)


def situation(state: State, comp: Components, side: str) -> dict:
    """The game at a glance beside the map, as the turn's actions so far leave it and as
    the report words it (reports/model.situation): the week, turn and step, the first
    player, the victory points (2.2), each side's hand, deck, discards, bag and
    Recruitment Box (the opponent's hand size decides a Loyalty Challenge, 8.6), the Mōri
    Box and the eliminated."""
    shown = model.situation(view(state, comp, side), comp)
    headers = [_("hand"), _("deck"), _("discards"), _("bag"), _("recruits")]
    keys = ("hand", "deck", "discard", "bag", "recruit")
    return {
        "lines": model.glance(shown),
        "headers": headers,
        "counts": [[c["side"], *(c[k] for k in keys)] for c in shown["counts"]],
        "boxes": [list(box) for box in shown["boxes"]],
    }


def clan_colours(comp: Components) -> dict[str, str]:
    """Each daimyo's colour, as the map draws its blocks (reports/svgmap.py)."""
    palette = svgmap.CLAN_PALETTE
    return {c: palette[i % len(palette)] for i, c in enumerate(comp.clans)}


def hand(state: State, comp: Components, side: str) -> list[dict]:
    """The side's cards now, each with its words and its daimyo's colour on the map."""
    colours = clan_colours(comp)
    out = []
    for c in sorted(state["cards"][side]["hand"]):
        spec = comp.cards[c]
        colour = "#555" if spec.clan is None else colours.get(spec.clan, "#555")
        out.append({"id": c, "traits": n.card_traits(comp, c), "colour": colour})
    return out


def turn(session: TurnSession, comp: Components, packet_view: dict) -> list[dict]:
    """The actions chosen so far, as `seki play` lists them before signing."""
    out = []
    for start, action, _after in session.done:
        if action["type"] == "plan":
            plan = yaml.safe_dump(action["plan"], sort_keys=False, width=70)
            out.append({"text": _("file this battle plan (only you see it):"), "detail": plan})
        else:
            shown = view_at(session, start.state, packet_view)
            out.append({"text": describe_option(action, comp, shown, session.side)})
    return out


def ask(session: TurnSession, question: Question, comp: Components, packet_view: dict) -> dict:
    """The question and its choices: words, the default, and what answers each besides
    its button."""
    shown = view_at(session, session.state, packet_view)
    default = question.default
    defaults = default if isinstance(default, list) else [default]
    choices = []
    colours = clan_colours(comp)
    for i, choice in enumerate(question.choices):
        where = targets.place(question, choice, comp)
        piece = targets.unit(choice, comp)
        choices.append(
            {
                "i": i,
                "label": labels.label(choice, question, comp, shown, session.side),
                "place": where.loc if where else None,
                "march": bool(where and where.march),
                "card": targets.card(choice, comp),
                "unit": None if piece is None else face(piece, comp, colours),
                "default": default is not None and choice.value in defaults,
            }
        )
    out = {
        "prompt": labels.prompt(question, comp),
        "multi": question.pick != "one",
        "tiles": question.pick != "one" and all(c["unit"] for c in choices),
        "pick": question.pick,
        "limit": question.limit,
        "count": how_many(question),  # the terminal's words: "choose exactly 2"
        "choices": choices,
        "at": question.context.get("at"),
    }
    if question.key == "stack":  # where each stack could go, shown as it is pointed at
        out["reach"] = reach(session.state, comp, session.side)
    return out


def face(unit: str, comp: Components, colours: dict[str, str]) -> dict:
    """How a block's tile is drawn, as the map draws the block (its daimyo's colour, its
    mon, a leader's flag, a gun's or cavalry's mark), or a disk's (its letter)."""
    disk = comp.disks.get(unit)
    if disk is not None:
        return {"id": unit, "disk": unit[:1].upper(), "traits": disk.name}
    spec = comp.blocks[unit]
    return {
        "id": unit,
        "colour": colours.get(spec.clan, "#666"),
        "mon": spec.mon,
        "leader": spec.leader,
        "ability": spec.ability,
        "traits": n.block_traits(comp, unit),
    }


# The questions of a stack move after its stack is chosen (rules/decisions/stack_move.py).
MOVE_QUESTIONS = frozenset(("blocks", "leader", "step", "drop", "split", "march_card"))


def building(session: TurnSession) -> dict | None:
    """The stack move being built, for the page to draw while its path is chosen, read
    from the dialogue's own questions (rules/decisions/stack_move.py): where the stack
    started (`from`); the column walking now, from there through each place chosen
    (`now`), and where it stands (`at`); the place a force march is about to reach while
    its card is asked (`next`); the columns already stopped (`done`: the other part of a
    split, blocks dropped off on the way). None when no stack move is being built."""
    question = session.question
    if question is None or question.key not in MOVE_QUESTIONS:
        return None
    asked = _asked(session)
    origin = next((str(a) for q, a in asked if q.key == "stack"), None)
    if origin is None:
        return None
    walking: dict = {}
    going: object = None
    done: list[list[str]] = []
    for q, a in asked:
        if q.key == "step":
            walking, going = dict(q.context), a
            if a == STOP:
                done.append(list(walking["path"]))
        elif q.key == "drop":  # the blocks dropped off stay where the column stood
            done.append(list(walking["path"]))
    if question.key == "step":
        walking = dict(question.context)
    path = list(walking.get("path", []))
    forced = going[0] if question.key == "march_card" and isinstance(going, tuple) else None
    return {
        "from": origin,
        "now": [origin, *path],
        "at": path[-1] if path else origin,
        "next": forced,
        "done": [[origin, *p] for p in done if p],
    }


def _asked(session: TurnSession) -> list[tuple[Question, object]]:
    """The current action's questions so far, each with its answer: its answers replayed
    on its dialogue, as the session replays them (play/session.py). A battle plan's
    dialogue is not a decision's: none."""
    step = session.step
    if step is None or step.opening is not None:
        return []
    # not None: a step without an opening is made only where the side is asked
    # (play/session.py), so the game is not over
    kind = cast(Kind, current(step.state))
    dialogue = kind.dialogue(step.state, session.comp, session.side)
    question = next(dialogue)
    out: list[tuple[Question, object]] = []
    for given in step.answers:
        out.append((question, given))
        question = dialogue.send(given)
    return out
