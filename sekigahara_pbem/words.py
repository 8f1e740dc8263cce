"""The words for what the records write that both the referee's mail (mail/robot.py,
referee/closing.py) and the reports (reports/names.py) show: the sides, and how a game
ended. Marked here, put in the reader's language where shown; a value a table lacks is
shown as it is.

It imports only i18n, so that the engine's mail and the presentation layer share words
without either importing the other (reports may read the engine's archives through
pbem; pbem does not import reports).
"""

from __future__ import annotations

from .i18n import N_, gettext

SIDE_NAMES = {"ishida": N_("Ishida"), "tokugawa": N_("Tokugawa")}
OTHER_NAMES = {"nobody": N_("nobody")}
CLOSE_PAGE = N_("You may close this page.")  # the last words of a page that stays (web/)
HOW = {  # how a game ended (result.how), as the records write it
    "points": N_("points"),
    "instant": N_("instant"),
    "resignation": N_("resignation"),
    "forfeit": N_("forfeit"),
}


def side(s: object) -> str:
    """A side (or 'nobody') by its name in the reader's language."""
    if not isinstance(s, str):
        return str(s)
    name = SIDE_NAMES.get(s) or OTHER_NAMES.get(s)
    return gettext(name) if name else s


def how(h: object) -> str:
    """How a game ended, in the reader's language (the English is the records' word)."""
    return named(HOW, h)


def named(names: dict[str, str], value: object) -> str:
    """`value`'s name from a table of words marked N_, in the reader's language; a value
    the table lacks as it is."""
    return gettext(names[value]) if isinstance(value, str) and value in names else str(value)


EXPLAINED = ("instant", "forfeit")  # results whose reason says what `how` does not


def outcome(result: dict) -> str:
    """A game's result in words: who won, how, why (the records' reason, where the how
    does not say it all: which protagonist fell, which deadline passed) and by which rule;
    on points, the score. Every place that says how a game ended says it so: status,
    verify, the closing report, the report's GAME OVER line, the demo."""
    winner, rule = side(result.get("winner")), result.get("rule")
    if isinstance(result.get("points"), dict):
        score = ", ".join(f"{side(s)} {p}" for s, p in result["points"].items())
        text = gettext("{winner} wins on points ({score}; rule {rule})")
        return text.format(winner=winner, score=score, rule=rule)
    if result.get("reason") and result.get("how") in EXPLAINED:
        text = gettext("{winner} wins ({how}: {reason}; rule {rule})")
        return text.format(winner=winner, how=how(result.get("how")), reason=result["reason"],
                           rule=rule)  # fmt: skip
    text = gettext("{winner} wins ({how}; rule {rule})")
    return text.format(winner=winner, how=how(result.get("how")), rule=rule)
