"""Plain-text reports (Markdown-readable, 80 columns): templates/report.txt.j2."""

from __future__ import annotations

from ..i18n import N_
from ..i18n import gettext as _
from . import model
from .env import environment

MISSING_VIEW = N_(
    "The public view of this record is not available (public/state.yaml holds only the "
    "last one, and no git history of the game directory has it); its events follow."
)


def title(game_id: str, seq: int, side: str | None) -> str:
    from .names import side as side_name

    if side is None:
        text = _("Sekigahara, game {game}: public report after record {seq}")
        return text.format(game=game_id, seq=seq)
    text = _("Sekigahara, game {game}: packet {seq} for {side}")
    return text.format(game=game_id, seq=seq, side=side_name(side))


def render(
    report: dict,
    all_options: bool = False,
    footer: str | None = None,
    guided: bool = False,
    brief: bool = False,
) -> str:
    """The report as text; `guided` leaves out the options and the turn template (seki
    play asks for the decision itself); `brief`, the situation and the map (the player
    read them in the last report, of the same step: report.txt.j2)."""
    template = environment().get_template("report.txt.j2")
    return template.render(
        report=report,
        title=title(report["game"], report["seq"], report["side"]),
        all_options=all_options,
        max_shown=model.MAX_OPTIONS_SHOWN,
        missing_view=_(MISSING_VIEW),
        footer=footer,
        guided=guided,
        brief=brief,
    )
