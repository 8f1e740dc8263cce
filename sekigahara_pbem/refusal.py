"""One exception type for every input that is refused, with a named code (issue 12).

A refused input is the sender's to fix: the referee keeps it (sealed) and says why. Any
other exception met while adjudicating is a bug: the run stops and leaves the game as it
was, rather than telling a player to fix a file that was never wrong. The codes name the
cause for programs (the mail robot, two-party peers, tests) as boardgame.io's do; the
message says it for people, with the rule number where a rule refuses.

`Refusal` is a `ValueError` so that the commands, which turn any bad input into a one-line
error, catch it as before; the referee catches `Refusal` alone.

A refusal's English text is written into records and files, so it is made here, the same
in every language. A person reads it in theirs: a refusal keeps its message as a template
with named placeholders and their values, and the places that show it (i18n.explain)
translate the template, then fill it. The engine may not import gettext, so a raise site
marks its template with the no-op `N_` that message extractors know.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable

MALFORMED = "malformed"  # not the document's shape: a field missing or of the wrong type
TOO_LARGE = "too_large"
WRONG_GAME = "wrong_game"  # for another game or another game definition
WRONG_SIDE = "wrong_side"  # signed by another key than the side it names
WRONG_VERSION = "wrong_version"  # another component set or an older format
BAD_SIGNATURE = "bad_signature"
BAD_SEAL = "bad_seal"
BAD_KEY = "bad_key"
NOT_STARTED = "not_started"  # the game has not started, or has already
NOT_ASKED = "not_asked"  # no decision is asked of that side now
STALE = "stale"  # answers a packet that is no longer the one to answer
ILLEGAL = "illegal"  # the rules refuse it (with the rule's number)
DUPLICATE = "duplicate"  # sent already: one join, one seed, one request, one answer
NOT_UNDOABLE = "not_undoable"
NO_EXTENSION = "no_extension"

CODES = frozenset(
    {
        MALFORMED, TOO_LARGE, WRONG_GAME, WRONG_SIDE, WRONG_VERSION, BAD_SIGNATURE, BAD_SEAL,
        BAD_KEY, NOT_STARTED, NOT_ASKED, STALE, ILLEGAL, DUPLICATE, NOT_UNDOABLE, NO_EXTENSION,
    }
)  # fmt: skip


_QUOTED = reprlib.Repr()
_QUOTED.maxlevel = 3
_QUOTED.maxstring = _QUOTED.maxother = 80
_QUOTED.maxlist = _QUOTED.maxtuple = _QUOTED.maxdict = _QUOTED.maxset = 6
QUOTED_LIMIT = 200


def quoted(value: object) -> str:
    """A value from the input, quoted in a message: a bounded repr, which looks at no more
    of it than it shows. A plain repr of a structure built by YAML aliases walks all of
    it: gigabytes from a few hundred bytes."""
    text = _QUOTED.repr(value)
    return text if len(text) <= QUOTED_LIMIT else text[: QUOTED_LIMIT - 1] + "…"


def N_(message: str) -> str:  # the name gettext extractors know
    """Marks a message for extraction where it is defined (a refusal's template, a table
    of words, a help text); it is translated where it is shown. It lives here, free of
    gettext, so that the engine can mark its refusals; i18n offers it to the rest."""
    return message


class Phrase:
    """A part of a refusal's message with a template of its own (a word, a hint, a list
    joined with 'or'), translated where it is shown as the message is."""

    def __init__(self, template: str, **params: object):
        self.template = template
        self.params = params

    @classmethod
    def listed(cls, parts: list[Phrase | str]) -> Phrase:
        """Parts joined with commas, each put in words on its own."""
        return cls(
            ", ".join(f"{{p{i}}}" for i in range(len(parts))),
            **{f"p{i}": p for i, p in enumerate(parts)},
        )

    def words(self, translate: Callable[[str], str]) -> str:
        """The template passed through `translate` (str: the English text), filled."""
        return _fill(self.template, self.params, translate)

    def __str__(self) -> str:
        return self.words(str)


TYPE_NAMES = {  # a YAML value's Python type, as refusals name it ("expected text, got int")
    "str": N_("str"),
    "int": N_("int"),
    "float": N_("float"),
    "bool": N_("bool"),
    "list": N_("list"),
    "dict": N_("dict"),
    "NoneType": N_("NoneType"),
}


SIDE_IDS = {"ishida": N_("ishida"), "tokugawa": N_("tokugawa")}  # as the files write them


def side_words(side: object) -> Phrase | object:
    """A side as a refusal names it: its id in English ('ishida', as in every refusal
    written so far), its name in the reader's language where shown ('Isida')."""
    return Phrase(SIDE_IDS[side]) if isinstance(side, str) and side in SIDE_IDS else side


def sides_waiting(asked: list[dict], decisions: bool = False) -> Phrase:
    """The sides a decision is asked of, as a refusal lists them: 'ishida, tokugawa', or
    with `decisions` 'ishida (bid), tokugawa (bid)'."""
    if decisions:
        parts = [Phrase("{side} ({decision})", side=side_words(d["side"]),
                        decision=d["decision"]) for d in asked]  # fmt: skip
    else:
        parts = [side_words(s) for s in sorted({d["side"] for d in asked})]
    return Phrase.listed(parts)


def type_words(kinds: type | tuple[type, ...]) -> Phrase:
    """Python types as a refusal names them: their names in English ('str/int'), put in
    the reader's words where shown."""
    names = [k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,))]
    parts = {f"k{i}": Phrase(TYPE_NAMES.get(name, name)) for i, name in enumerate(names)}
    return Phrase("/".join(f"{{k{i}}}" for i in range(len(names))), **parts)


def _fill(template: str, params: dict[str, object], translate: Callable[[str], str]) -> str:
    """A message taken as it is when it has no params, else a template filled with them
    (a phrase or a refusal among them put in words the same way). A translation that names
    a placeholder the message lacks raises KeyError, left to the caller (i18n.explain falls
    back to the English text)."""
    text = translate(template)
    if not params:
        return text
    values = {
        k: v.words(translate) if isinstance(v, Phrase | Refusal) else v for k, v in params.items()
    }
    return text.format_map(values)


class Refusal(ValueError):
    """An input refused for a named reason; `rule` is the rule number when a rule refuses.

    `message` is taken as it is, unless `params` are given: then it is a template filled
    with them (`{road}`); a param may be a Phrase, or a refusal (a turn file's refusal
    wraps the engine's). `where` (a rule number, a field) comes first and is never
    translated: it is typed, or looked up in the rulebook. The arguments are positional,
    so that any name serves as a placeholder."""

    code = MALFORMED

    def __init__(
        self,
        message: str,
        code: str | None = None,
        rule: str | None = None,
        where: str | None = None,
        /,
        **params: object,
    ):
        self.template = message
        self.params = params
        self.where = where
        super().__init__(self.words(str))
        if code is not None:
            if code not in CODES:
                raise TypeError(f"unknown refusal code {code!r}")
            self.code = code
        self.rule = rule

    def words(self, translate: Callable[[str], str]) -> str:
        """The message with its template passed through `translate` (str: the English
        text), filled, after `where`."""
        text = _fill(self.template, self.params, translate)
        return text if self.where is None else f"{self.where}: {text}"

    def __reduce__(self) -> tuple:
        """Pickled whole, template and values (`seki verify` checks packets in a second
        process): the constructors of the subclasses differ, so none is called."""
        return _revive, (type(self), self.args, self.__dict__)


def _revive(cls: type[Refusal], args: tuple, state: dict) -> Refusal:
    refusal = cls.__new__(cls)
    refusal.args = args
    refusal.__dict__.update(state)
    return refusal
