"""The movement dialogue's menus (issue 41). The path menu's "(n more after)": the steps
a column could still take after the one offered, each asked of the engine, so the number
is never more than a signed turn could use: not past an enemy that stops the move
(7.3.2), not along a road used already this phase (7.3.1), not off the highway that gave
the bonus (7.3.3). And what Enter answers once the moves are spent."""

from __future__ import annotations

import yaml

from sekigahara_pbem.rules.decisions.stack_move import Column, Stack
from sekigahara_pbem.rules.position import build_position

BESIDE = """
week: 2
step: movement
first: ishida
blocks:
  minakuchi: [ukita-2a, ukita-2b]
  ueda: [ishida-mitsunari]
  edo: [tokugawa-leader]
{more}
phase: {{level: limited{roads}}}
hands:
  ishida: [ukita-1]
"""


def _more_after(comp, more: str = "", roads: str = "") -> dict:
    """Each next step from Minakuchi of its two blocks, with the steps said to be left."""
    spec = yaml.safe_load(BESIDE.format(more=more, roads=roads))
    stack = Stack(build_position(comp, spec), comp, "ishida", "minakuchi")
    return {c.value: c.note.get("left") for c in stack.steps([], Column(["ukita-2a", "ukita-2b"]))}


def test_the_highway_on_is_counted(comp):
    """Minakuchi-Kuwana-Kiyosu is highway all the way: one more after Kuwana (7.3.3)."""
    assert _more_after(comp)["kuwana"] == 1


def test_an_enemy_that_stops_the_move_leaves_no_step_after_it(comp):
    """Two Tokugawa blocks at Kuwana (no overrun of two by two, 7.4.1): the stack stops
    there (7.3.2); it was offered with one more after."""
    assert _more_after(comp, "  kuwana: [tokugawa-2a, tokugawa-2b]")["kuwana"] == 0


def test_a_road_used_already_is_not_a_step_after(comp):
    """Kuwana-Kiyosu used this phase (7.3.1), Kuwana-Anotsu not highway (7.3.3): nothing
    after Kuwana; it was offered with one more after."""
    assert _more_after(comp, roads=", roads: ['kiyosu|kuwana']")["kuwana"] == 0


SPENT = """
week: 2
step: movement
first: ishida
blocks:
  osaka: [ukita-2a, ukita-2b]
  ueda: [ishida-mitsunari]
  edo: [tokugawa-leader]
  mori: [mori-leader, mori-3a]
phase: {level: minimal, moves_left: 0}
hands:
  ishida: [mori-1, ukita-1]
"""


def test_once_the_moves_are_spent_enter_ends_the_phase_not_spends_cards(comp):
    """Moves spent, Mōri blocks in their box (9.3): Enter's answer ends the Movement
    Phase; bringing Mōri blocks spends cards and is chosen, never defaulted to."""
    from sekigahara_pbem.rules.decisions.movement import guide

    state = build_position(comp, yaml.safe_load(SPENT))
    question = next(guide(state, comp, "ishida"))
    assert [c.value for c in question.choices] == ["mori", "end_movement"]
    assert question.default == "end_movement"


OSAKA = """
week: 2
step: movement
first: ishida
blocks:
  osaka: [ishida-mitsunari, ukita-2a, ukita-2b]
  edo: [tokugawa-leader]
phase: {level: limited, moves_left: 2}
hands:
  ishida: [ukita-1]
"""


def test_enter_moves_a_stack_without_its_protagonist(comp):
    """Osaka's army with Mitsunari (2.1: his loss loses the game): Enter at "which blocks
    go" took him along; the default is every block but him."""
    from sekigahara_pbem.rules.decisions.stack_move import compose_move

    state = build_position(comp, yaml.safe_load(OSAKA))
    dialogue = compose_move(state, comp, "ishida")
    assert next(dialogue).key == "stack"
    question = dialogue.send("osaka")
    assert question.key == "blocks"
    assert [c.value for c in question.choices] == ["ishida-mitsunari", "ukita-2a", "ukita-2b"]
    assert question.default == ["ukita-2a", "ukita-2b"]


def test_no_drop_off_or_split_where_an_enemy_stops_the_whole_column(comp):
    """Issue 41: at Kuwana, where two enemy blocks stop the move (7.3.2), the path menu
    offered dropping blocks off and splitting the column, though none of it may go on:
    stop is the only choice."""
    from sekigahara_pbem.rules.decisions.stack_move import STOP, compose_move

    spec = yaml.safe_load(BESIDE.format(more="  kuwana: [tokugawa-2a, tokugawa-2b]", roads=""))
    dialogue = compose_move(build_position(comp, spec), comp, "ishida")
    next(dialogue)
    assert dialogue.send("minakuchi").key == "blocks"
    question = dialogue.send(["ukita-2a", "ukita-2b"])
    assert question.key == "step" and "kuwana" in [c.value for c in question.choices]
    question = dialogue.send("kuwana")
    assert [c.value for c in question.choices] == [STOP]
