"""The language a person reads: gettext catalogs (sekigahara_pbem/locale/<lang>/LC_MESSAGES/
seki.mo, compiled from seki.po with Babel) chosen per reader.

English is the source language: every message id is the English text, so English needs
no catalog and its output is the text in the code. Files that travel (turn files,
packets, records, the archive) never pass through here; they stay language-neutral.

The language in use is a context variable, not an argument, so that the many small
functions that put events and options into words (reports/, play/labels.py) need not
thread it through; `using(lang)` sets it for one report (the referee's robot mails each
player in theirs), `activate(lang)` for a whole command.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from . import preferences
from .refusal import N_ as N_  # marks a message where it is defined (refusal.py)
from .refusal import Refusal, UsageError, UserError, quoted

DOMAIN = "seki"
DEFAULT = "en"
LOCALE_DIR = Path(__file__).parent / "locale"
ENV_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: ContextVar[_gettext.NullTranslations | None] = ContextVar(
    "seki_translations", default=None
)
_ENGLISH = _gettext.NullTranslations()


def _translations() -> _gettext.NullTranslations:
    return _current.get() or _ENGLISH


def available() -> tuple[str, ...]:
    """English and every language whose compiled catalog ships with the package."""
    shipped = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (DEFAULT, *[lang for lang in shipped if lang != DEFAULT])


@cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """The translations of `lang` (English: none needed). a Refusal if not shipped."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    if lang not in available():
        raise Refusal(
            N_("no '{lang}' translation (available: {available})"),
            lang=lang,
            available=", ".join(available()),
        )
    return _gettext.translation(DOMAIN, LOCALE_DIR, [lang])


def gettext(message: str) -> str:
    """`message` in the reader's language."""
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` of a counted message, by the language's plural rule."""
    return _translations().ngettext(singular, plural, n)


def current() -> str:
    """The language in use now."""
    info = _translations().info()
    return info.get("language", DEFAULT) or DEFAULT


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Everything put into words inside the block is in `lang` (a Refusal if unknown)."""
    token = _current.set(catalog(lang))
    try:
        yield
    finally:
        _current.reset(token)


def activate(lang: str) -> None:
    """`lang` for the rest of this command (a Refusal if unknown)."""
    _current.set(catalog(lang))


def normalise(code: str) -> str | None:
    """'hu', 'hu_HU.UTF-8' or 'hu-HU' -> 'hu'; 'C' and 'POSIX' -> 'en'; None if empty."""
    code = code.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not code:
        return None
    if code in ("C", "POSIX"):
        return DEFAULT
    return code.split("_")[0].lower()


def settings_language(directory: Path) -> str | None:
    """The `lang` of the key directory's config.toml (None if absent or unreadable)."""
    lang = preferences.read(directory).get("lang")
    return normalise(lang) if isinstance(lang, str) else None


def choose(
    option: str | None, directory: Path | None, environ: Mapping[str, str] | None = None
) -> tuple[str, str | None]:
    """The reader's language and, if config.toml names one that is not shipped, a note
    saying English is used. In order: `--lang` (one not shipped is a UsageError: the
    person typed it just now), the key directory's config.toml, then LANGUAGE, LC_ALL,
    LC_MESSAGES and LANG (an environment language without a catalog is passed over
    quietly: most systems name one)."""
    env = os.environ if environ is None else environ
    if option:
        return _asked(option), None
    if directory is not None and (value := settings_language(directory)):
        if value in available():
            return value, None
        where = directory / preferences.SETTINGS_FILE
        note = f"no '{value}' translation ({where}); available: {', '.join(available())}"
        return DEFAULT, note + "; English is used"
    for name in ENV_VARIABLES:
        for value in env.get(name, "").split(":"):
            lang = normalise(value)
            if lang in available():
                return lang, None
    return DEFAULT, None


def _asked(option: str) -> str:
    """The language `--lang` names; a UsageError naming those shipped if it is not one."""
    lang = normalise(option)
    if lang not in available():
        raise UsageError(
            N_("--lang {lang}: no such language here (available: {available})"),
            lang=quoted(option),
            available=", ".join(available()),
        )
    return lang


def explain(exc: BaseException) -> str:
    """Why an input was refused, in the reader's language: an error seki raises on purpose
    keeps its template, which is translated, then filled (refusal.py); anything else is
    its English text. A translation names the placeholders of its message, no others
    (tests/test_i18n.py checks every catalog)."""
    return exc.words(gettext) if isinstance(exc, UserError) else str(exc)
