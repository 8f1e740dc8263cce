"""The errors seki raises on purpose, with a named code (issues 12, 29).

`UserError` is what the person who ran a command is to fix or be told: one line, exit 1
(or the status its class or code names: `ExitStatus`, the one table of them).
`Refusal`, its kind for inputs, is the sender's to fix: the referee keeps the input
(sealed) and says why. Nothing else is caught anywhere but at the top (cli.main): any
other exception is a bug, and surfaces as one (an internal error, exit 70), never as
"fix your file". The codes name the cause for programs (the mail robot, two-party peers,
tests) as boardgame.io's do; the message says it for people, with the rule number where a
rule refuses.

A refusal's English text is written into records and files, so it is made here, the same
in every language. A person reads it in theirs: an error keeps its message as a template
with named placeholders and their values, and the places that show it (i18n.explain)
translate the template, then fill it. The engine may not import gettext, so a raise site
marks its template with the no-op `N_` that message extractors know.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Sequence
from enum import IntEnum, StrEnum


class Code(StrEnum):
    """Why an input was refused, for programs (the mail robot, two-party peers, tests)."""

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
    CHEAT = "cheat"  # a two-party record the receiver's copy proves wrong
    STORE = "store"  # a game directory missing, locked or not in its shape: no one's input
    COMPONENTS = "components"  # a component set that does not load
    MAIL = "mail"  # a mail server that refused or could not be reached


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


class ExitStatus(IntEnum):
    """The exit status of `seki`: one meaning each (docs/cli.md, `seki --help`), for the
    scripts and cron jobs that run it. 2 is click's own, 74 and 75 are sysexits.h's."""

    DONE = 0
    REFUSED = 1  # the input given is refused, or a check asked for found problems
    USAGE = 2  # the command line itself: an unknown option, a missing argument
    NOT_VERIFIED = 3  # an archive, a packet or the opponent's record proves altered or wrong
    STOPPED = 4  # the player stopped (or --choose ran out): nothing was written
    INTERNAL = 70  # a bug in seki (EX_SOFTWARE)
    IO = 74  # the machine's: a file that cannot be read or written, a full disk (EX_IOERR)
    MAIL = 75  # mail not sent or fetched: kept queued, the next run tries again (EX_TEMPFAIL)
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)


EXIT_WORDS = {  # each exit status as `seki --help` lists it
    ExitStatus.DONE: N_("done"),
    ExitStatus.REFUSED: N_("refused: the input (a file, a value, a game) or a check of it"),
    ExitStatus.USAGE: N_("usage: the command line itself"),
    ExitStatus.NOT_VERIFIED: N_("does not verify: an archive, packet or opponent's record"),
    ExitStatus.STOPPED: N_("stopped by the player: nothing written"),
    ExitStatus.INTERNAL: N_("internal error: a bug in seki"),
    ExitStatus.IO: N_("a file or the disk failed (an OS error)"),
    ExitStatus.MAIL: N_("mail not sent or fetched: kept for the next run"),
    ExitStatus.INTERRUPTED: N_("interrupted"),
}

CODE_EXITS = {  # the codes that say on their own how a command ends
    Code.BAD_SIGNATURE: ExitStatus.NOT_VERIFIED,  # a document changed after it was signed
    Code.CHEAT: ExitStatus.NOT_VERIFIED,  # the opponent's record, proved wrong
    Code.MAIL: ExitStatus.MAIL,
}


class Phrase:
    """A part of a refusal's message with a template of its own (a word, a hint, a list
    joined with 'or'), translated where it is shown as the message is."""

    def __init__(self, template: str, **params: object):
        self.template = template
        self.params = params

    @classmethod
    def listed(cls, parts: Sequence[object]) -> Phrase:
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
    parts: list[object]
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
        k: v.words(translate) if isinstance(v, Phrase | UserError) else v for k, v in params.items()
    }
    return text.format_map(values)


class SekiError(Exception):
    """The root of the errors seki raises on purpose. A `UserError` is said in one line
    (exit 1, or its `exit_status`); any other exception is a bug and reaches the top as an
    internal error."""


class UserError(SekiError):
    """What the person who ran the command is to fix, or a state they are told of: a
    refused input, a game directory in the wrong shape, a component set that does not load.

    `message` is taken as it is, unless `params` are given: then it is a template filled
    with them (`{road}`); a param may be a Phrase, or another error put in words the same
    way (a turn file's refusal wraps the engine's). `at` (a rule number, a file, a field:
    kept as `where`) comes first and is never translated: it is typed, or looked up in the
    rulebook. `code` and `rule` are for programs: the cause, and the rule number where a
    rule refuses. The keywords are not placeholders: a template may say `{where}`.
    `exit_status`: how `seki` ends after saying it; a class of errors that is no refusal
    names its own (a player who stopped), a code in CODE_EXITS its own."""

    code = Code.MALFORMED
    exit_status = ExitStatus.REFUSED

    def __init__(
        self,
        message: str,
        /,
        *,
        code: Code | None = None,
        rule: str | None = None,
        at: str | None = None,
        **params: object,
    ):
        self.template = message
        self.params = params
        self.where = at
        super().__init__(self.words(str))
        if code is not None:
            self.code = Code(code)
        if self.code in CODE_EXITS:
            self.exit_status = CODE_EXITS[self.code]
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


class Refusal(UserError):
    """An input refused for a named reason: the sender's to fix. The referee keeps the
    input (sealed) with the reason and catches this alone: any other error while
    adjudicating leaves the game as it was."""


class UsageError(UserError):
    """The command line itself is wrong, said by seki in one line (exit 2, as click's
    own usage errors): an option's value that names nothing there is (`--lang xx`), or
    one left out that nothing else can stand for (`--key`, with no key to default to)."""

    exit_status = ExitStatus.USAGE


def _revive(cls: type[UserError], args: tuple, state: dict) -> UserError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error
