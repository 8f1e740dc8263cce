"""The field-level schema of a component set (docs/components.md): what each value of
board.yaml, blocks.yaml and cards.yaml may be, checked as it is read.

A set may come from anyone (a game archive carries its own), and what it holds ends up in
orders, file names of reports, terminals, web pages and SVG maps. So every value is held
to the narrowest form the game needs: ids from one small alphabet with a length cap,
integers in a range per field, display names without markup, control or bidirectional
characters, mappings without unknown keys, lists with a length cap. Each refusal names
the file and the field (`blocks.yaml: blocks[3].id`), as a path a person can find.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, NoReturn

from ..refusal import N_, Code, Phrase, Refusal, quoted, type_words

ID_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")  # `ukita-2c`, `loyalty-ishida-1`
SYMBOL_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*")  # `gold_square`
ID_MAX = 32
NAME_MAX = 64
NAME_PUNCTUATION = frozenset(" .,:;()-–—’/")  # besides letters, marks and digits
NAME_CATEGORIES = ("L", "M", "N")  # Unicode general categories: letters, marks, numbers
MAX_LIST = 512  # locations, roads, blocks, cards: the printed set has at most 110
MAX_COORDINATE = 100_000  # a board picture's pixels
LONG_BITS = 64  # an integer longer than this is quoted by its length alone


class ComponentError(Refusal):
    """A component set that does not load; `where` is the file and the field
    (`blocks.yaml: blocks[3].id`), the message a template (refusal.py)."""

    code = Code.COMPONENTS

    # (Any, as RuleViolation's: the values only fill the template.)
    def __init__(self, where: str, message: str, **params: Any):
        super().__init__(message, at=where, **params)


@dataclass(frozen=True)
class At:
    """Where a value is: its file and the path of keys and indices to it."""

    file: str
    path: str = ""

    def key(self, name: object) -> At:
        return At(self.file, f"{self.path}.{name}" if self.path else str(name))

    def item(self, index: int) -> At:
        return At(self.file, f"{self.path}[{index}]")

    def fail(self, message: str, **params: object) -> NoReturn:
        raise ComponentError(str(self), message, **params)

    def __str__(self) -> str:
        return f"{self.file}: {self.path}" if self.path else self.file


def shown(value: object) -> object:
    """A value as a refusal quotes it; an integer too long to be any field's only by its
    length, as Python turns no integer of more than 4,300 digits into text (and a long
    one slowly)."""
    if isinstance(value, int) and value.bit_length() > LONG_BITS:
        return Phrase(N_("a number of about {digits} digits"), digits=value.bit_length() * 3 // 10)
    return quoted(value)


def typed(value: Any, at: At, kind: type | tuple[type, ...]) -> Any:
    """`value` if it is of `kind`; a boolean is no number or text (YAML's `yes`)."""
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        at.fail(N_("expected {kind}, got a boolean"), kind=type_words(kind))
    if not isinstance(value, kind):
        at.fail(
            N_("expected {kind}, got {got}"),
            kind=type_words(kind),
            got=type_words(type(value)),
        )
    return value


def mapping(value: Any, at: At, known: frozenset[str]) -> dict:
    """A mapping whose keys are all among `known`: a misspelt key (`castel: gold`) would
    otherwise be ignored in silence, and what no one reads has no place in a set."""
    typed(value, at, dict)
    for key in value:
        if not isinstance(key, str) or key not in known:
            at.fail(N_("unknown field {name}"), name=shown(key))
    return value


def listed(value: Any, at: At, most: int = MAX_LIST, least: int = 0) -> list:
    """A list of `least` to `most` items."""
    typed(value, at, list)
    if not least <= len(value) <= most:
        at.fail(
            N_("expected {least} to {most} items, got {count}"),
            least=least,
            most=most,
            count=len(value),
        )
    return value


def required(doc: dict, key: str, at: At) -> Any:
    """The value under `key`; a key written `null` counts as absent."""
    if doc.get(key) is None:
        at.key(key).fail(N_("missing"))
    return doc[key]


def integer(value: Any, at: At, low: int, high: int) -> int:
    """An integer from `low` to `high`; the loader has refused any integer written with
    more characters than a bounded one needs (component_files.py), so this compares
    small numbers only."""
    typed(value, at, int)
    if not low <= value <= high:
        at.fail(N_("must be {low} to {high}, got {value}"), low=low, high=high,
                value=shown(value))  # fmt: skip
    return value


def flag(value: Any, at: At) -> bool:
    return typed(value, at, bool)


def ident(value: Any, at: At, pattern: re.Pattern[str] = ID_PATTERN) -> str:
    """An id: lowercase ASCII letters and digits in words joined by single hyphens (a
    setup symbol by underscores too), a letter first, at most ID_MAX characters. Ids are
    typed in orders, written in file names and two-party handles (which start with `?`)."""
    typed(value, at, str)
    if len(value) > ID_MAX or not pattern.fullmatch(value):
        at.fail(
            N_("{value} is not an id (a-z, 0-9 and single hyphens, a letter first, "
               "at most {most} characters)"),
            value=quoted(value),
            most=ID_MAX,
        )  # fmt: skip
    return value


def symbol(value: Any, at: At) -> str:
    return ident(value, at, SYMBOL_PATTERN)


def name(value: Any, at: At) -> str:
    """A name shown to people (reports, pages, maps, mail): letters, marks and digits of
    any script, single spaces and NAME_PUNCTUATION, at most NAME_MAX characters. No markup
    (`<`, `&`, quotes), no control, format or bidirectional characters (a right-to-left
    mark turns the text around it), no other spacing."""
    typed(value, at, str)
    bad = next((c for c in value if not _name_char(c)), None)
    if bad is not None:
        at.fail(N_("a name may not hold the character {character}"), character=f"U+{ord(bad):04X}")
    if (
        not value
        or len(value) > NAME_MAX
        or "  " in value
        or value.endswith(" ")
        or not _name_char(value[0], first=True)
    ):
        at.fail(
            N_(
                "a name has 1 to {most} characters, a letter or digit first, single spaces "
                "between words"
            ),
            most=NAME_MAX,
        )
    return value


def _name_char(c: str, first: bool = False) -> bool:
    """A letter, mark or digit; else (not first: a mark would join what comes before it)
    one of NAME_PUNCTUATION."""
    category = unicodedata.category(c)[0]
    if first:
        return category in ("L", "N")
    return c in NAME_PUNCTUATION or category in NAME_CATEGORIES


def one_of(value: Any, at: At, choices: tuple[str, ...]) -> str:
    typed(value, at, str)
    if value not in choices:
        at.fail(N_("{value} is not one of {choices}"), value=quoted(value),
                choices=", ".join(choices))  # fmt: skip
    return value


def pair(value: Any, at: At, low: int, high: int) -> tuple[int, int]:
    """Two integers from `low` to `high` (`[x, y]`, `[width, height]`)."""
    items = listed(value, at, 2, 2)
    return integer(items[0], at.item(0), low, high), integer(items[1], at.item(1), low, high)
