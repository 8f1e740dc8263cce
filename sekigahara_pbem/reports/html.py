"""The HTML report: one self-contained page (inline CSS and SVG, no script, no external
reference) from templates/report.html.j2 and templates/map.svg.j2."""

from __future__ import annotations

from ..i18n import N_, current
from ..i18n import gettext as _
from ..rules.components import Components
from . import svgmap, text
from .env import environment

NOTES = {
    True: N_(
        "Built from your packet alone: your view, this step's events as you may see them and "
        "your legal options. The enemy's hidden blocks and cards are not in it."
    ),
    False: N_("Built from the public view and the record's public events alone."),
}


def render(
    report: dict, view: dict, events: list, comp: Components, reach: dict | None = None
) -> str:
    """`reach`: where each of the reader's stacks could go (rules/decisions/movement.py),
    highlighted on the map when the reader picks a stack (CSS only, no script)."""
    side = report["side"]
    m = svgmap.build(view, events, comp, side)
    m["reach"] = reach or {}
    return (
        environment()
        .get_template("report.html.j2")
        .render(
            report=report,
            title=text.title(report["game"], report["seq"], side),
            m=m,
            missing_view=_(text.MISSING_VIEW),
            note=_(NOTES[side is not None]),
            lang=current(),
        )
    )
