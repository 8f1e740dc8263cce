"""What the page shows at one moment of the turn, as JSON for static/page.js: the map as
the turn's actions so far leave it, the hand, the actions so far, and the question to
answer with its choices worded as the terminal words them (play/labels.py, on the view
play/console.view_at gives), each with the
place or the card that also answers it (targets.py).

The map is drawn from the side's view of the shadow state after the actions so far, with
those actions' own events (their arrows and marks), as the HTML report draws a packet.
"""

from __future__ import annotations

import yaml

from ..i18n import gettext as _
from ..play import labels
from ..play.console import view_at
from ..play.session import TurnSession
from ..reports import names as n
from ..reports import svgmap
from ..reports.choices import describe_option
from ..reports.env import environment
from ..rules.components import Components
from ..rules.decisions import Question
from ..rules.decisions.movement import reach
from ..rules.engine import apply
from ..rules.views import redact_event, view
from . import targets


def moment(session: TurnSession, comp: Components, packet_view: dict, seq: int) -> dict:
    """The page's data now; `seq` numbers the moment, so an answer given to an older one
    (a double click, a second tab) is refused rather than taken for the next question."""
    side = session.side
    question = session.question
    return {
        "seq": seq,
        "map": board(session, comp),
        "places": svgmap.positions(comp),
        "hand": hand(session.state, comp, side),
        "turn": turn(session, comp, packet_view),
        "question": None if question is None else ask(session, question, comp, packet_view),
    }


def board(session: TurnSession, comp: Components) -> str:
    """The SVG map (templates/map.svg.j2) of the side's view after the actions so far."""
    side = session.side
    events = []
    for start, action, _after in session.done:
        events += [redact_event(e, side) for e in apply(start.state, comp, side, action)[1]]
    m = svgmap.build(view(session.state, comp, side), events, comp, side)
    m["reach"] = {}  # the page draws its own rings, as clickable targets
    return environment().get_template("map.svg.j2").render(m=m)


def hand(state: dict, comp: Components, side: str) -> list[dict]:
    """The side's cards now, each with its words and its daimyo's colour on the map."""
    colours = {
        c: svgmap.CLAN_PALETTE[i % len(svgmap.CLAN_PALETTE)] for i, c in enumerate(comp.clans)
    }
    out = []
    for c in sorted(state["cards"][side]["hand"]):
        spec = comp.cards[c]
        out.append(
            {"id": c, "traits": n.card_traits(comp, c), "colour": colours.get(spec.clan, "#555")}
        )
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
    for i, choice in enumerate(question.choices):
        where = targets.place(question, choice, comp)
        choices.append(
            {
                "i": i,
                "label": labels.label(choice, question, comp, shown, session.side),
                "place": where.loc if where else None,
                "march": bool(where and where.march),
                "card": targets.card(choice, comp),
                "default": default is not None and choice.value in defaults,
            }
        )
    out = {
        "prompt": labels.prompt(question, comp),
        "multi": question.pick != "one",
        "pick": question.pick,
        "limit": question.limit,
        "choices": choices,
        "at": question.context.get("at"),
    }
    if question.key == "stack":  # where each stack could go, shown as it is pointed at
        out["reach"] = reach(session.state, comp, session.side)
    return out
