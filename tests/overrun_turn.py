"""A movement turn whose file an overrun ends while the phase goes on (7.4): Osaka's four
Kobayakawa blocks overrun Kyoto's one, and Gifu's block may still move. The terminal's
summary and the page's Sign screen both say why the file ends there (issue 41)."""

from __future__ import annotations

from sekigahara_pbem.play.session import TurnSession
from sekigahara_pbem.rules.decisions.stack_move import STOP
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.state import DEFAULT_OPTIONS
from sekigahara_pbem.rules.views import view

ARMY = ["kobayakawa-2a", "kobayakawa-2b", "kobayakawa-3a", "kobayakawa-3b"]
POSITION = {
    "week": 2, "step": "movement", "first": "ishida", "active": "ishida",
    "phase": {"level": "total"},
    "blocks": {"osaka": ARMY, "kyoto": ["tokugawa-2a"], "gifu": ["ukita-2a"]},
    "hands": {"ishida": ["mori-1"]},
}  # fmt: skip


def overrun_turn(comp) -> tuple[TurnSession, dict]:  # noqa: ANN001 - a Components
    """Ishida's turn session, the army moved onto Kyoto's block, and the packet's view."""
    packet_view = view(build_position(comp, POSITION), comp, "ishida")
    session = TurnSession(shadow_state(comp, packet_view, DEFAULT_OPTIONS), comp, "ishida")
    for key, answer in [("movement", "move"), ("stack", "osaka"), ("blocks", ARMY),
                        ("step", "kyoto"), ("step", STOP)]:  # fmt: skip
        assert session.question.key == key
        session.answer(answer)
    return session, packet_view
