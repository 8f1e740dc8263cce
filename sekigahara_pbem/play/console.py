"""Asking a guided dialogue's questions: at a terminal through prompt_toolkit, or from a
script of answers (`--choose`), with the same parsing, checks and transcript either way.

An answer is a choice's number; several numbers (`1 3` or `1+3`) for a question that picks
many; nothing for the default shown; `u` to undo the last answer; `q` to stop without
writing anything. At a terminal a number that no other choice begins with is taken at
once, without Enter, and so are `q` and `u`: most answers are one key. A list numbered
past 9 is numbered with two digits (`01` to `16`), so every answer to it is two keys,
taken at once: a `1` that silently waits for a second digit became `11` with the next
answer's key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import yaml

from ..i18n import N_, explain
from ..i18n import gettext as _
from ..refusal import ExitStatus, UserError
from ..reports.choices import describe_option
from ..rules import views
from ..rules.components import Components
from ..rules.decisions import Choice, Question
from ..rules.state_types import State
from . import labels
from .session import TurnSession

if TYPE_CHECKING:
    from prompt_toolkit.output import Output

UNDO, QUIT = "u", "q"
CONFIRM = Question("confirm", (Choice("sign"),), default="sign")
NO_TERMINAL = N_(
    "seki play asks its questions at a terminal; without one, give the answers with --choose "
    "(see seki play --help)"
)
SEPARATORS = re.compile(r"[\s,+]+")

Asker = Callable[[str, Question], str]  # (prompt, question) -> the raw answer


class Stopped(UserError):
    """The player stopped the dialogue (or the script ran out); nothing is written."""

    exit_status = ExitStatus.STOPPED


class NotAnAnswer(UserError):
    """An answer that picks none of the choices, or not as many as asked; asked again."""


def numbers(question: Question) -> list[int]:
    """The number each choice is shown and typed with: the dialogue's stable ones (a stack
    keeps its number for the whole phase), else 1 to n."""
    return list(question.numbers) or list(range(1, len(question.choices) + 1))


def keys(question: Question) -> list[str]:
    """The numbers as shown and typed: padded with zeros to the widest (module docstring)."""
    shown = numbers(question)
    width = len(str(max(shown, default=1)))
    return [f"{n:0{width}d}" for n in shown]


def parse(raw: str, question: Question) -> list | object:
    """The value(s) an answer means; NotAnAnswer with a one-line reason if it means none."""
    text = raw.strip().lower()
    values = [c.value for c in question.choices]
    shown = numbers(question)
    by_number = dict(zip(shown, values, strict=True))
    if not text:
        if question.default is None and question.pick not in ("any",):
            raise NotAnAnswer(_("type a number") if single(question) else how_many(question))
        return question.default if question.default is not None else []
    typed = [p for p in SEPARATORS.split(text) if p]
    if not all(p.isdigit() for p in typed):
        raise NotAnAnswer(_("'{answer}' is not a number of the list").format(answer=raw.strip()))
    picked = []
    for p in typed:
        i = int(p)
        if i not in by_number:
            if shown == list(range(1, len(values) + 1)):
                raise NotAnAnswer(
                    _("{n} is not in the list (1-{last})").format(n=i, last=len(values))
                )
            raise NotAnAnswer(_("{n} is not one of the numbers shown").format(n=i))
        if by_number[i] not in picked:
            picked.append(by_number[i])
    if question.pick == "one":
        if len(picked) != 1:
            raise NotAnAnswer(how_many(question))
        return picked[0]
    wanted = isinstance(question.pick, int) and len(picked) != question.pick
    too_many = question.limit is not None and len(picked) > question.limit
    if wanted or too_many or (question.pick == "some" and not picked):
        raise NotAnAnswer(how_many(question))
    return picked


def single(question: Question) -> bool:
    """Whether a question takes one choice: asked and typed as one number (one key) even
    where its answer is a list of one (the unit lost, 8.7.2)."""
    return question.pick in ("one", 1)


def how_many(question: Question) -> str:
    """How many choices a question takes, said before it is answered (the hint of one that
    picks several) and when an answer takes a wrong number; '' where any number will do.
    A limit no smaller than the choices limits nothing and is not said."""
    if single(question):
        return _("choose one")
    if isinstance(question.pick, int):
        return _("choose exactly {n}").format(n=question.pick)
    limit = question.limit if question.limit is not None else len(question.choices)
    if limit < len(question.choices):
        if question.pick == "some":
            return _("choose one") if limit == 1 else _("choose 1 to {n}").format(n=limit)
        return _("choose at most {n}").format(n=limit)
    return _("choose at least one") if question.pick == "some" else ""


def render(question: Question, comp: Components, view: dict, side: str) -> list[str]:
    """The question and its numbered choices, the default marked."""
    text = labels.prompt(question, comp)
    lines = [text if text.endswith("?") else text + ":"]
    default = question.default
    for key, choice in zip(keys(question), question.choices, strict=True):
        chosen = choice.value == default or (isinstance(default, list) and choice.value in default)
        mark = "*" if chosen and default not in (None, []) else " "
        lines.append(f" {mark}{key:>2}. {labels.label(choice, question, comp, view, side)}")
    lines.append("    (" + "; ".join(filter(None, (_count(question), _hint(question)))) + ")")
    return lines


def _count(question: Question) -> str:
    """`how_many` where a question picks several; nothing for one (its hint says it)."""
    return "" if single(question) else how_many(question)


def _hint(question: Question) -> str:
    """How to answer: a number (two digits in a list numbered past 9), or several; Enter
    for the marked default where there is one."""
    marked = question.default not in (None, [])
    if not single(question):
        if marked:
            return _("numbers separated by spaces, Enter for the marked; u undo, q stop")
        return _("numbers separated by spaces; u undo, q stop")
    if any(len(key) > 1 for key in keys(question)):
        if marked:
            return _("two digits, Enter for the marked; u undo, q stop")
        return _("two digits; u undo, q stop")
    if marked:
        return _("a number, Enter for the marked; u undo, q stop")
    return _("a number; u undo, q stop")


def run(
    session: TurnSession,
    comp: Components,
    view: dict,
    ask: Asker,
    say: Callable[[str], None],
    back: bool = False,
) -> bool:
    """Ask until the turn is built (True); raise Stopped if the player stops. `view`:
    the packet's, which the turn starts from. `back`: answers were given before the
    session (a two-party record's earlier decisions, play/two_party.py), and `u` with
    nothing of the session's left to take back takes the last of those back: False."""
    while session.question is not None:
        question = session.question
        shown = view_at(session, session.state, view)
        for line in render(question, comp, shown, session.side):
            say(line)
        raw = ask("> ", question)
        if raw.strip().lower() == QUIT:
            raise Stopped(_("stopped: nothing written"))
        if raw.strip().lower() == UNDO:
            if session.undo():
                say(_("undone"))
            elif back:
                say(_("undone"))
                return False
            else:
                say(_("nothing to undo"))
            continue
        try:
            value = parse(raw, question)
        except NotAnAnswer as exc:
            say(f"  {explain(exc)}")
            continue
        session.answer(value)
    return True


def view_at(session: TurnSession, state: State, view: dict) -> dict:
    """The view the words of a choice read at `state`: the packet's `view` where the turn
    starts, else the view of the shadow state the actions chosen so far lead to, so that
    a number shown before a choice (an impact, 8.3) is the engine's on the turn so far."""
    if state is session.start:
        return view
    return views.view(state, comp=session.comp, side=session.side)


def confirm(
    session: TurnSession, comp: Components, view: dict, ask: Asker, say: Callable[[str], None]
) -> bool:
    """The whole turn, then: sign it (True), or undo its last answer (False)."""
    say(_("Your turn:"))
    for i, (start, action, _after) in enumerate(session.done, 1):
        if action["type"] == "plan":
            say(f"  {i}. " + _("file this battle plan (only you see it):"))
            plan = yaml.safe_dump(action["plan"], sort_keys=False, width=70).splitlines()
            for line in plan or ["{}"]:
                say(f"       {line}")
            continue
        shown = view_at(session, start.state, view)
        say(f"  {i}. {describe_option(action, comp, shown, session.side)}")
    if session.cut is not None:
        say(labels.cut(session.cut))
    while True:
        say(_("Sign it?  1. yes, sign and write the turn file    (u undo, q stop)"))
        raw = ask("> ", CONFIRM).strip().lower()
        if raw in ("", "1"):
            return True
        if raw == QUIT:
            raise Stopped(_("stopped: nothing written"))
        if raw == UNDO:
            session.undo()
            say(_("undone"))
            return False
        say("  " + _("type 1, u or q"))


def script(answers: str) -> Asker:
    """An asker that takes the answers of `--choose` in order (`-` is Enter); a script
    that ends where the turn is complete signs it."""
    items: Iterator[str] = iter(answers.split(",")) if answers.strip() else iter(())

    def ask(prompt: str, question: Question) -> str:
        item = next(items, None)
        if item is None:
            if question is CONFIRM:
                return ""  # a script that answered every question signs the turn
            ran_out = _("the answers given with --choose ran out before the turn was complete")
            raise Stopped(ran_out)
        return "" if item.strip() == "-" else item.strip()

    return ask


def _output() -> Output:
    """The terminal's output for prompt_toolkit, asking no cursor position reports (CPR).
    A terminal that does not answer them (a pseudo-terminal of a program, some editors'
    shells) would get prompt_toolkit's "WARNING: your terminal doesn't support cursor
    position requests" two seconds into a question; a one-line prompt has no menu to
    make room for, so it needs no reports from any terminal."""
    from prompt_toolkit.output import create_output
    from prompt_toolkit.output.vt100 import Vt100_Output

    output = create_output()
    if isinstance(output, Vt100_Output):  # Windows' consoles are asked none anyway
        output.enable_cpr = False
    return output


def terminal() -> Asker:
    """An asker at the terminal: a number no other choice begins with is taken at once, and
    so are `q` and `u` typed on an empty line."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.key_binding import KeyBindings

    shown: list[str] = []  # the numbers of the question asked; none when it picks many
    bindings = KeyBindings()

    for digit in "0123456789":

        @bindings.add(digit)
        def _typed(event, digit: str = digit) -> None:
            buffer = event.app.current_buffer
            buffer.insert_text(digit)
            text = buffer.text.strip()
            if text in shown and not any(n != text and n.startswith(text) for n in shown):
                buffer.validate_and_handle()

    for letter in (QUIT, UNDO, QUIT.upper(), UNDO.upper()):

        @bindings.add(letter)
        def _at_once(event, letter: str = letter) -> None:
            buffer = event.app.current_buffer
            buffer.insert_text(letter)
            if buffer.text.strip().lower() in (QUIT, UNDO):
                buffer.validate_and_handle()

    session: PromptSession = PromptSession(key_bindings=bindings, output=_output())

    def ask(prompt: str, question: Question) -> str:
        shown[:] = keys(question) if single(question) else []
        try:
            return session.prompt(prompt)
        except EOFError:  # boundary: Ctrl-D at the prompt stops, as `q` does (exit 4)
            return QUIT  # Ctrl-C goes on up: interrupted, exit 130 (cli.py), as anywhere

    return ask
