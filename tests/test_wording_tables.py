"""Every kind of decision, action, step and event has its words in each table that puts it
in words (issue 29, "decision modules complete"): a kind added to the engine without them
would show its bare id, or the generic line, to a player. The tables are keyed on the
engine's own names (rules/decisions KINDS, rules/vocab STEPS, the events of random games)."""

from __future__ import annotations

import ast
from pathlib import Path

from sekigahara_pbem.play import labels
from sekigahara_pbem.reports import choices, events, model, names, shapes
from sekigahara_pbem.rules.decisions import KINDS
from sekigahara_pbem.rules.engine import ANYTIME
from sekigahara_pbem.rules.vocab import COMBAT, MOVEMENT, STEPS


def test_every_kind_of_decision_is_named_and_explained():
    assert set(names.DECISIONS) == set(KINDS)
    assert set(choices.DECISIONS) == set(KINDS)


def test_every_action_a_decision_takes_is_described_and_has_a_shape():
    actions = {action for kind in KINDS.values() for action in kind.actions}
    assert set(choices.OPTION_DESCRIBERS) == actions
    assert set(shapes.OPTIONS) == actions
    assert not actions & set(ANYTIME)  # resign and plan are sent, never listed as options


def test_every_step_is_named_and_the_active_ones_say_whose():
    assert set(names.STEP_NAMES) == set(STEPS)
    assert set(model.ACTIVE_STEPS) == {MOVEMENT, COMBAT}


def test_every_event_described_has_a_shape():
    assert set(events.DESCRIBERS) == set(shapes.EVENTS)


def test_every_guided_question_has_a_prompt():
    """Each question a dialogue asks (`Question(key, ...)` in rules/decisions) is a key of
    play/labels.PROMPTS: found in the source, literal keys and the named constants."""
    from sekigahara_pbem.rules.decisions import stack_move

    keys = set()
    for path in Path(stack_move.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Question":
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    keys.add(first.value)
    keys |= {stack_move.DROP, stack_move.SPLIT}  # `Question(step, ...)`: one of the two
    assert len(keys) >= 20, keys
    assert keys <= set(labels.PROMPTS), keys - set(labels.PROMPTS)
