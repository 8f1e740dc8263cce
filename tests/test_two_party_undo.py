"""Undo across the decisions of a two-party record, at the terminal (issue 30): `u` at
the first question of a decision takes back the last answer of the one before, and `u` at
the confirmation the record's last answer; the record is built again from the side's
saved knowledge with the answers kept, so the record signed is byte for byte the one
the answers kept alone write, and nothing is written before it is signed. The
confirmation words each action on the copy it was chosen on."""

from __future__ import annotations

import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import pexpect
import pytest
from two_party_game import Game, actions, at_movement, deploys_first, first_asked, play_until

from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.play import console
from sekigahara_pbem.play import two_party as ui
from sekigahara_pbem.protocol.clock import format_time
from sekigahara_pbem.reports.choices import describe_option
from sekigahara_pbem.rules.components import Components
from sekigahara_pbem.rules.decisions import Question
from sekigahara_pbem.rules.vocab import other

HINT = r"\((?:choose [^;()]*; )?(?:a number|numbers separated by spaces)[^)]*\)"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\r")
CHOICE = re.compile(r"^\s*\*?\s*(\d+)\. (.*?)\s*$")


@pytest.fixture(scope="module")
def movement(tmp_path_factory) -> Game:
    """Two bots' two-party game through the files, up to a side's Movement Phase."""
    return play_until(tmp_path_factory.mktemp("undo-movement"), at_movement, "undo")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Game:
    """Two bots' two-party game through the files, up to a record that deploys first."""
    return play_until(tmp_path_factory.mktemp("undo-deploy"), deploys_first, "words")


def _shown(child: pexpect.spawn) -> tuple[dict[str, str], bool]:
    """The question just shown (its hint matched last): its choices (words -> the number
    typed for it), and whether it picks many."""
    lines = [line for line in ANSI.sub("", child.before).split("\n") if line.strip()]
    numbered = [CHOICE.match(line) for line in lines]
    last = max(i for i, m in enumerate(numbered) if m is None) if None in numbered else -1
    return {m[2]: m[1] for m in numbered[last + 1 :] if m}, "numbers separated" in child.after


def _asked(child: pexpect.spawn) -> tuple[dict[str, str], bool]:
    """The next question, once shown."""
    child.expect(HINT)
    return _shown(child)


def _type(child: pexpect.spawn, question: tuple[dict[str, str], bool], starts: str) -> str:
    """Type the number of the choice whose words start with `starts`, as a player does:
    one key where no other number begins with it (taken at once), else with Enter (as
    for a question of many); the choice's words."""
    choices, many = question
    words = next(w for w in choices if w.startswith(starts))
    number = choices[words]
    alone = not many and not any(n != number and n.startswith(number) for n in choices.values())
    child.send(number if alone else number + "\r")
    return words


def test_u_at_a_decisions_first_question_goes_back_into_the_one_before(movement, tmp_path):
    """`seki play DIR` at a pseudo-terminal: the level chosen (minimal), then `u` at the
    first question of the next decision says undone and asks the level again; limited,
    paying a card, is chosen instead, the phase ended and the record signed. The record
    holds the new level and card, and the other side's engine takes it in."""
    side = movement.copy(movement.due, tmp_path / "me")
    home = tmp_path / "home"
    write_identity(home, movement.keys[movement.due])
    env = {**os.environ, "SEKI_HOME": str(home), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "sekigahara_pbem", "play", str(side.root), "--key", movement.due],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )
    question = _asked(child)
    if any(words.startswith("choose the movement level") for words in question[0]):
        _type(child, question, "choose the movement level")  # Ishida may bring Mōri's blocks
        question = _asked(child)
    _type(child, question, "minimal")
    assert any(words.startswith("end the Movement Phase") for words in _asked(child)[0])
    child.send("u")
    child.expect("undone")
    child.expect("Movement level \\(7.1\\):")
    _type(child, _asked(child), "limited")
    child.expect("Spend 1 card for it")
    card = _type(child, _asked(child), "").split(" ")[0]
    _type(child, _asked(child), "end the Movement Phase")
    while child.expect([HINT, "Sign it\\?"]) == 0:  # what the record asks after the phase
        _type(child, _shown(child), "")
    child.send("\r")
    child.expect("wrote .*: send it to the other player")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = side.records()[-1].read_text(encoding="utf-8")
    assert actions(side.game, text)[0] == {"type": "level", "level": "limited", "cards": [card]}
    opponent = movement.copy(other(movement.due), tmp_path / "other")
    opponent.receive(text, side.records()[-1].name, format_time(datetime.now(UTC)))


class Script:
    """Answers by what a question offers, as `--choose` types them: each planned answer
    (the question's key and the value of the choice picked, or `u`) when that question
    comes, any other question answered with its first choice; what is said is kept."""

    def __init__(self, plan: list[tuple[str, object]]):
        self.plan, self.said = list(plan), []

    def ask(self, prompt: str, question: Question) -> str:
        if self.plan and self.plan[0][0] == question.key:
            answer = self.plan.pop(0)[1]
            if answer in (console.UNDO, ""):
                return answer
        elif question is console.CONFIRM:
            return ""
        else:
            answer = question.choices[0].value
        values = [c.value for c in question.choices]
        shown = console.numbers(question)
        picked = answer if isinstance(answer, list) else [answer]
        return " ".join(str(shown[values.index(value)]) for value in picked)

    def record(self) -> ui.AtTheTerminal:
        return ui.AtTheTerminal(self.ask, self.said.append)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_record_built_with_answers_taken_back_is_the_one_built_without_them(movement, tmp_path):
    """`u` at the very first question: nothing to undo. Then limited movement paying a
    card; `u` at the next decision's first question goes back to the card, `u` again to
    the level, and minimal is chosen; the phase ended, `u` at the confirmation takes the
    end back, and it is chosen again. Until it is signed nothing in the directory has
    changed, and the record signed is, byte for byte, the one the answers kept write."""
    first, kc = first_asked(movement.sides[movement.due])
    opening = ui.OneAction(first, kc, movement.due).question.key
    level = [("movement", "level")] if opening == "movement" else []  # Mōri's blocks, or not
    undoing, direct = (movement.copy(movement.due, tmp_path / d) for d in ("undo", "direct"))
    before = _files(undoing.root)
    unchanged: list[bool] = []

    def confirm_unchanged(record: ui.AtTheTerminal):
        def confirm(made: list[dict], state: dict) -> bool:
            unchanged.append(_files(undoing.root) == before)
            return record.confirm(made, state)

        return confirm

    card = next(c for c in first["cards"][movement.due]["hand"])
    undo = [(opening, "u"), *level, ("level", "limited"), ("level_cards", [card])]
    undo += [("movement", "u"), ("level_cards", "u"), ("level", "minimal")]
    undo += [("movement", "end_movement"), ("confirm", "u"), ("movement", "end_movement")]
    script = Script(undo)
    record = script.record()
    now = movement.clock.now()
    text = undoing.turn(record.choose, now, confirm_unchanged(record))
    # `u` at the confirmation takes back the record's last answer: the end of the phase, or,
    # where the record goes on to a decision after it (the bots' game decides), that one's
    # answer, given again as first asked, and the end is never asked again
    assert script.plan in ([], [("movement", "end_movement")]) and unchanged == [True, True]
    assert script.said.count("nothing to undo") == 1 and script.said.count("undone") == 3
    kept = Script([*level, ("level", "minimal"), ("movement", "end_movement")]).record()
    assert text == direct.turn(kept.choose, now, kept.confirm)
    assert actions(undoing.game, text)[0] == {"type": "level", "level": "minimal", "cards": []}
    opponent = movement.copy(other(movement.due), tmp_path / "other")
    opponent.receive(text, undoing.records()[-1].name, movement.clock.now())


def _worded(
    chosen: list[tuple[dict, Components, dict]], side: str, state: dict | None = None
) -> list[str]:
    """Each action described on the copy it was chosen on, or all on `state`."""
    return [
        describe_option(action, kc, ui.side_view(state or at, kc, side), side)
        for at, kc, action in chosen
    ]


def with_a_card(prompt: str, question: Question) -> str:
    """A deployment with a card where one is offered (a card first, where a leader may
    also deploy without one: the question asks for the card, then the block), else the
    first choice; signs."""
    if question is console.CONFIRM:
        return ""
    offered = [c.value for c in question.choices]
    carded = (i for i, v in enumerate(offered) if _card(v))
    return str(console.numbers(question)[next(carded, 0)])


def _card(value: object) -> bool:
    """Whether a choice deploys with a card, or is the card to deploy with."""
    return isinstance(value, str) or (isinstance(value, dict) and bool(value.get("card")))


def test_the_confirmation_words_each_deployment_as_it_was_chosen(deployment, tmp_path):
    """A record that deploys a block with a card: the confirmation lists each action as
    the question offered it, on the battle as it stood then, not on the battle the
    record leaves (where the block deployed counts for its own daimyo's +1, 8.3.3)."""
    due = deployment.due
    side = deployment.copy(due, tmp_path / "me")
    said: list[str] = []
    record = ui.AtTheTerminal(with_a_card, said.append)
    chosen: list[tuple[dict, Components, dict]] = []
    after: list[list[str]] = []

    def choose(state: dict, kc: Components, s: str) -> dict | None:
        action = record.choose(state, kc, s)
        if action is not None:  # None: an answer taken back, the record built again
            chosen.append((state, kc, action))
        return action

    def confirm(made: list[dict], state: dict) -> bool:
        after.append(_worded(chosen, due, state))
        return record.confirm(made, state)

    side.turn(choose, deployment.clock.now(), confirm)
    listed = said[said.index("Your record:") + 1 :][: len(chosen)]
    assert listed == [f"  {i}. {line}" for i, line in enumerate(_worded(chosen, due), 1)]
    assert chosen[-1][2].get("card") and after[0][-1] != _worded(chosen, due)[-1]
