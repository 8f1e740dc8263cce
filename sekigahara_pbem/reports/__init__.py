"""Reports: a player's (from its packet) and the public's (from the public view and the
record's public events), as plain text for a terminal or a mail body and as a
self-contained HTML page with an SVG map. Templates live in sekigahara_pbem/templates/.

Every report is built from a view and redacted events, never from a full state, so a
report can only show what its reader may know. A mail body travels unencrypted: use the
public report there, whose last line (`packet_hint`) points the recipient to the sealed
packet attached.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..i18n import gettext as _
from . import html, model, text

if TYPE_CHECKING:
    from ..protocol.packets import Packet
    from ..rules.components import Components

DEFAULT_PACKET_NAME = "packet.txt"


def packet_hint(packet_name: str = DEFAULT_PACKET_NAME) -> str:
    """The line that ends a mail body: where the recipient's secrets are."""
    text = _(
        "Your hand, blocks and legal options are in the attached packet: seki view {packet} "
        "--key YOUR-KEY (add --html report.html for the map)."
    )
    return text.format(packet=packet_name)


def mail_report(
    game_id: str, seq: int, view: dict, events: list, comp: Components, packet_name: str
) -> str:
    """The public report a packet's mail body carries, ending with where the packet's
    secrets are (`packet_hint`): what the referee's robot is handed to write it
    (mail/robot.py: pbem does not import reports)."""
    return render_public_text(game_id, seq, view, events, comp, footer=packet_hint(packet_name))


def render_text(
    game_id: str,
    packet: Packet,
    comp: Components,
    all_options: bool = False,
    guided: bool = False,
    earlier: Sequence[Packet] = (),
    brief: bool = False,
) -> str:
    """The recipient's report of a packet: its view, its events and its options (not the
    options when `guided`: seki play asks for the decision); with `earlier`, the packets
    since the reader's last turn, whose events are told first (the story so far);
    `brief`, without the situation and the map (reports/text.py)."""
    report = _packet_report(game_id, packet, comp, earlier)
    return text.render(report, all_options, guided=guided, brief=brief)


def render_public_text(
    game_id: str, seq: int, view: dict, events: list, comp: Components, *, footer: str | None = None
) -> str:
    """The spectator's report from the public view and the record's public events. It
    ends with `footer`, by default `packet_hint()` (pass "" for none)."""
    report = model.build(game_id, seq, view, events, comp)
    return text.render(report, footer=packet_hint() if footer is None else footer)


def render_html(
    game_id: str,
    packet: Packet,
    comp: Components,
    options: dict | None = None,
    earlier: Sequence[Packet] = (),
) -> str:
    """The recipient's report as one self-contained HTML page with the SVG map; in its
    Movement Phase, where each of its stacks can go (computed on its shadow state, with
    the game's `options`). With `earlier` (the packets since the reader's last turn), their
    events are told first and drawn on the map too."""
    report = _packet_report(game_id, packet, comp, earlier)
    events = [e for p in earlier for e in p.events] + packet.events
    return html.render(report, packet.view, events, comp, _reach(packet, comp, options))


def _reach(packet: Packet, comp: Components, options: dict | None) -> dict:
    from ..rules.decisions.movement import reach
    from ..rules.shadow import shadow_state
    from ..rules.state import DEFAULT_OPTIONS
    from ..rules.vocab import MOVEMENT

    v = packet.view
    asked = any(d["side"] == packet.side for d in v.get("pending", []))
    if not asked or v.get("step") != MOVEMENT or "own" not in v:
        return {}
    state = shadow_state(comp, v, options if options is not None else DEFAULT_OPTIONS)
    return reach(state, comp, packet.side)


def render_public_html(game_id: str, seq: int, view: dict, events: list, comp: Components) -> str:
    """The spectator's report as one self-contained HTML page with the SVG map."""
    return html.render(model.build(game_id, seq, view, events, comp), view, events, comp)


def _packet_report(
    game_id: str, packet: Packet, comp: Components, earlier: Sequence[Packet] = ()
) -> dict:
    from dataclasses import replace

    from ..protocol.checking import template

    asked = any(d["side"] == packet.side for d in packet.view.get("pending", []))
    reader = model.Reader(
        packet.side,
        packet.options,
        # the turn file's header; the report lists the options itself
        template(game_id, replace(packet, options=[])) if asked else None,
        [(p.seq, p.events) for p in earlier],
    )
    return model.build(game_id, packet.seq, packet.view, packet.events, comp, reader)
