"""The terminal turn as a new player met it (issue 30): every number shown before a choice
is the engine's on the turn so far, the words name what the rules name, and one key is
one answer."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import cligame
import pexpect
import pytest
import yaml
from overrun_turn import overrun_turn

from sekigahara_pbem.play import console, labels
from sekigahara_pbem.play.session import TurnSession
from sekigahara_pbem.rules.decisions import Choice, Question
from sekigahara_pbem.rules.decisions.stack_move import STOP
from sekigahara_pbem.rules.engine import apply
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.web import desk, moment

SCENARIOS = Path(__file__).parent / "scenarios"


def _position(comp, name: str, *actions: tuple[str, dict]) -> dict:
    state = build_position(comp, yaml.safe_load((SCENARIOS / name).read_text())["position"])
    for side, action in actions:
        state, _ = apply(state, comp, side, action)
    return state


def _siege_at_gifu(comp) -> dict:
    """Tokugawa besieges Gifu with three Tokugawa blocks and three swords cards (8.9.4)."""
    return _position(
        comp,
        "8_9_5_no_special_attack_in_siege.yaml",
        ("tokugawa", {"type": "end_movement"}),
        ("ishida", {"type": "castle", "inside": True}),
    )


def test_8_3_3_each_deployment_shows_the_impact_the_engine_then_adds(comp):
    """Three deployments in one turn file: the second and third show the same-daimyo bonus
    of the ones before (8.3.3), as the deploy handler adds it, not the packet's."""
    state = _siege_at_gifu(comp)
    packet_view = view(state, comp, "tokugawa")
    session = TurnSession(shadow_state(comp, packet_view, {}), comp, "tokugawa")
    shown = []
    while session.question is not None:
        question, before = session.question, session.state
        current = console.view_at(session, before, packet_view)
        for choice in question.choices:
            if choice.value["type"] != "deploy":
                continue
            text = labels.label(choice, question, comp, current, "tokugawa")
            _, events = apply(before, comp, "tokugawa", choice.value)
            total = next(e["impact"]["tokugawa"] for e in events if e["type"] == "deploy")
            added = total - before["combat"]["fight"]["impact"]["tokugawa"]
            assert int(re.findall(r"\d+", text)[-1]) == added, text
            shown.append(added)
        session.answer(question.choices[0].value)
    assert shown[-1] == 3  # 1 mon + 2 same daimyo, with two deployed before it this turn


def _asked(session: TurnSession, key: str, *answers: object):
    """Answer a session's questions in order until the one named `key` is asked."""
    for answer in answers:
        session.answer(answer)
    assert session.question is not None and session.question.key == key
    return session.question


def test_7_2_the_moori_daimyo_is_mustered_from_the_recruitment_box_not_the_moori_box(comp):
    """Musters of the Mōri daimyo's blocks (7.2) are offered by the daimyo's name; only
    bringing blocks from the Mōri Box is about the Box (9.3)."""
    spec = {
        "week": 2, "turn": "A", "step": "movement", "first": "ishida", "active": "ishida",
        "blocks": {"recruit": ["mori-2a", "mori-2b"]},
        "hands": {"ishida": ["mori-1", "mori-2"]},
    }  # fmt: skip
    state = build_position(comp, spec)
    state, _ = apply(state, comp, "ishida", {"type": "level", "level": "total",
                                             "cards": ["mori-1", "mori-2"]})  # fmt: skip
    session = TurnSession(state, comp, "ishida")
    question = _asked(session, "clan", "muster", "A")
    words = [labels.label(c, question, comp, {}, "ishida") for c in question.choices]
    assert "Mōri" in words
    assert not any("Box" in w for w in words)


def test_9_3_the_moori_blocks_question_says_how_many_come(comp):
    """One Mōri block comes per card discarded (9.3): the question says how many before it
    is answered, at the terminal and on the page, and a bare Enter or a wrong count is
    told that number, not "type a number"."""
    spec = {
        "week": 2, "step": "movement", "first": "ishida", "active": "ishida",
        "blocks": {"mori": ["mori-leader", "mori-3a", "mori-3b", "mori-3c"]},
        "hands": {"ishida": ["mori-1", "mori-2", "ukita-1", "ukita-2", "uesugi-1"]},
    }  # fmt: skip
    session = TurnSession(build_position(comp, spec), comp, "ishida")
    cards = _asked(session, "mori_cards", "mori")
    assert "(choose 1 to 4; numbers separated by spaces" in _hint(cards, comp)
    question = _asked(session, "mori_blocks", ["mori-1", "mori-2"])
    assert "(choose exactly 2; numbers separated by spaces" in _hint(question, comp)
    for wrong in ("", "1", "1 2 3"):
        with pytest.raises(console.NotAnAnswer, match="^choose exactly 2$"):
            console.parse(wrong, question)
    with pytest.raises(console.NotAnAnswer, match="^choose exactly 2$"):
        desk.value(question, [])
    assert console.parse("1 3", question) == [question.choices[0].value, question.choices[2].value]


def test_8_7_2_one_unit_lost_is_asked_as_one_number(comp):
    """A loss of one unit is a list of one in the turn file, but the player types one
    number (one key), as for any question of one choice; a limit no smaller than the
    choices is not said."""
    units = ("mori-2c", "uesugi-cav-a")
    one = Question("losses", tuple(Choice(u) for u in units), 1)
    assert _hint(one, comp) == "    (a number; u undo, q stop)"
    with pytest.raises(console.NotAnAnswer, match="^type a number$"):
        console.parse("", one)
    with pytest.raises(console.NotAnAnswer, match="^choose one$"):
        console.parse("1 2", one)
    assert console.parse("2", one) == ["uesugi-cav-a"]
    stay = Question("castle", (Choice("mori-3f"),), "any", [], 2)
    assert _hint(stay, comp) == "    (numbers separated by spaces; u undo, q stop)"
    split = Question("blocks", tuple(Choice(u) for u in units), "some", None, 1)
    assert _hint(split, comp).startswith("    (choose one; numbers separated by spaces")


def _hint(question: Question, comp) -> str:
    """The line under a question's choices at the terminal."""
    return console.render(question, comp, {}, "ishida")[-1]


def _play(root: Path, who: str) -> pexpect.spawn:
    """`seki play` in a real pseudo-terminal, for `who` (cligame's keys) in game g."""
    env = {**os.environ, "SEKI_HOME": str(root / who), "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1"}  # fmt: skip
    return pexpect.spawn(sys.executable, ["-m", "sekigahara_pbem", "play", "--from",
                         "g/packets", "--key", who], cwd=str(root), env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 100))  # fmt: skip


def test_q_and_u_take_effect_at_once_without_enter(tmp_path):
    """One key per answer at the terminal (README): `u` undoes and `q` stops as typed."""
    cligame.started(tmp_path)
    child = _play(tmp_path, "alice")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("2")
    child.expect(r"Sign it\?")
    child.send("u")  # no Enter
    child.expect("undone")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("q")  # no Enter
    child.expect("stopped: nothing written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 4  # stopped by the player (refusal.ExitStatus)
    assert not list(tmp_path.glob("turn-*"))


def _suwa(comp, tokugawa_hand: list[str]) -> dict:
    """Ishida attacks Suwa and deploys a Ukita block with a card (8.6.1 asks Tokugawa)."""
    spec = {
        "week": 2, "step": "movement", "first": "ishida", "active": "ishida",
        "phase": {"level": "none", "entered": {"suwa": ["kofu"]}},
        "blocks": {"suwa": ["ukita-2a", "ukita-2b", "tokugawa-2a"]},
        "hands": {"ishida": ["ukita-1", "ukita-2"], "tokugawa": tokugawa_hand},
    }  # fmt: skip
    state = build_position(comp, spec)
    for action in ({"type": "end_movement"}, {"type": "deploy", "card": "ukita-1",
                                               "blocks": ["ukita-2a"]}):  # fmt: skip
        state, _ = apply(state, comp, "ishida", action)
    return state


def test_8_6_1_a_side_without_a_loyalty_challenge_is_told_why_it_is_asked(comp):
    """Asked whenever it might hold one (docs/rulings.md, 8.6.1), a side that holds none
    reads that it holds none and that the question hides its hand; the title names the
    battle and both impacts."""
    state = _suwa(comp, ["tokugawa-1", "tokugawa-2"])
    session = TurnSession(state, comp, "tokugawa")
    text = console.render(session.question, comp, view(state, comp, "tokugawa"), "tokugawa")
    assert text[0].startswith("Battle at Suwa (8.6): you hold no Loyalty Challenge card")
    assert "cannot tell" in text[0]
    assert [c.value for c in session.question.choices] == [{"type": "decline"}]
    held = TurnSession(_suwa(comp, ["loyalty-tokugawa-1"]), comp, "tokugawa")
    title = labels.prompt(held.question, comp)
    assert title.startswith("Battle at Suwa (8.6) — your impact 0, theirs 2: challenge")


def test_8_5_each_combat_question_is_titled_with_its_place_and_the_impacts(comp):
    state = _siege_at_gifu(comp)
    session = TurnSession(state, comp, "tokugawa")
    assert labels.prompt(session.question, comp) == (
        "Siege of Gifu (8.5) — your impact 0, theirs 0: deploy?"
    )
    session.answer(session.question.choices[0].value)
    assert "your impact 1, theirs 0" in labels.prompt(session.question, comp)


def _siege_plan_position(comp, plan: dict) -> dict:
    """Tokugawa, with its battle plan filed, besieges Gifu with four blocks that bring 3,
    3+1, 3+2 and 2+3 impact (8.3.3); Ishida stays inside (8.9.2)."""
    spec = {
        "week": 2, "turn": "A", "step": "movement", "first": "tokugawa", "active": "tokugawa",
        "phase": {"level": "none", "entered": {"gifu": ["kiyosu"]}},
        "blocks": {"gifu": ["ukita-2a", "tokugawa-3a", "tokugawa-3b", "tokugawa-3c",
                            "tokugawa-2a"]},
        "castle_owner": {"gifu": "ishida"},
        "hands": {"ishida": ["ukita-1"],
                  "tokugawa": ["tokugawa-1", "tokugawa-2", "tokugawa-3", "tokugawa-4"]},
    }  # fmt: skip
    state = build_position(comp, spec)
    state, _ = apply(state, comp, "tokugawa", {"type": "plan", "plan": plan})
    state, _ = apply(state, comp, "tokugawa", {"type": "end_movement"})
    state, events = apply(state, comp, "ishida", {"type": "castle", "inside": True})
    return next(e for e in events if e["type"] == "siege_result")


def _planned(*answers: object) -> dict:
    from sekigahara_pbem.play.plan import plan_dialogue

    dialogue = plan_dialogue()
    question = next(dialogue)
    try:
        for given in answers:
            question = dialogue.send(given)
    except StopIteration as done:
        return done.value["plan"]
    raise AssertionError(f"still asked {question.key}")


def test_8_9_4_a_plan_tells_sieges_from_battles(comp):
    """The plan's questions ask for battles and sieges apart: a battle's 'finish at a lead
    of 3' no longer stops a siege at 3 impact, where 7 make one loss (8.9.4 B)."""
    battle_only = _planned("ask", "ask", "losing_most", 3, "ask", "ask", "ask", "ask")
    assert battle_only["siege"] == {"deploy": "ask"}  # not the battle's orders
    plan = _planned("ask", "ask", "losing_most", 3, 7, "ask", "ask", "ask")
    result = _siege_plan_position(comp, plan)
    assert result["impact"]["tokugawa"] == 7 and result["losses"]["ishida"] == 1


def test_8_9_4_a_plan_without_siege_orders_reads_as_before(comp):
    """A plan filed before plans had `siege` orders gives its general ones in sieges too."""
    old = {"deploy": [{"block": "any", "card": "any", "pick": "most"}],
           "stop": {"lead": 3, "otherwise": "finish"}}  # fmt: skip
    result = _siege_plan_position(comp, old)
    assert result["impact"]["tokugawa"] == 3 and result["losses"]["ishida"] == 0


def test_8_7_2_losing_the_fewest_mon_first_loses_a_1_mon_leader_before_a_3_mon_block(comp):
    """The plan's losses answer says what it does: blocks of fewest mon first, the
    protagonist last (2.1); `any` keeps its order (leader dots first) for older plans."""
    from sekigahara_pbem.rules.plans import LOSS_ORDERS

    plan = _planned("ask", "ask", "ask", "ask", "ask", "fewest_mon", "ask")
    assert plan["losses"] == ["fewest_mon"]
    units = ["ishida-mitsunari", "ukita-3a", "ukita-leader", "ukita-2a"]
    order = LOSS_ORDERS["fewest_mon"]
    assert sorted(units, key=lambda u: order(comp, u)) == [
        "ukita-leader", "ukita-2a", "ukita-3a", "ishida-mitsunari"
    ]  # fmt: skip
    older = LOSS_ORDERS["any"]
    assert sorted(units, key=lambda u: older(comp, u))[0] == "ukita-2a"
    from sekigahara_pbem.play.plan import plan_dialogue

    dialogue = plan_dialogue()
    question = next(dialogue)
    for given in ("ask",) * 5:
        question = dialogue.send(given)
    assert question.key == "plan_losses"
    words = labels.label(question.choices[1], question, comp, {}, "ishida")
    assert "fewest mon" in words and "1-mon leader before a 3-mon block" in words


def test_7_no_action_name_is_shown_for_words(comp):
    """`end_movement` is the turn file's name for ending the Movement Phase (7); what the
    player reads says it in words, at every movement question and in the decision."""
    from sekigahara_pbem.reports.choices import decision_text

    assert "end_movement" not in decision_text({"decision": "movement"}, {}, comp)
    spec = {
        "week": 2, "turn": "A", "step": "movement", "first": "ishida", "active": "ishida",
        "blocks": {"gifu": ["ukita-2a"]}, "hands": {"ishida": ["mori-1"]},
    }  # fmt: skip
    state = build_position(comp, spec)
    state, _ = apply(state, comp, "ishida", {"type": "level", "level": "none"})
    session = TurnSession(state, comp, "ishida")
    shown = console.render(session.question, comp, view(state, comp, "ishida"), "ishida")
    assert any("End" in line or "end" in line for line in shown[1:])
    assert not any("end_movement" in line for line in shown), shown


def test_adjudicate_uses_the_referee_key_the_game_names_by_default(tmp_path):
    """game.txt names its referee's key (here 'ref'): `seki adjudicate` needs no --key."""
    ok = cligame.ok
    ok(tmp_path, "ref", "keys", "new", "ref")
    (tmp_path / "alice.pub").write_text(ok(tmp_path, "alice", "keys", "new", "alice"))
    (tmp_path / "bob.pub").write_text(ok(tmp_path, "bob", "keys", "new", "bob"))
    ok(tmp_path, "ref", "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
       "--key", "ref")  # fmt: skip
    ok(tmp_path, "alice", "join", "g/game.txt", "--key", "alice")
    ok(tmp_path, "bob", "join", "g/game.txt", "--key", "bob")
    done = ok(tmp_path, "ref", "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt")
    assert "accepted" in done


def test_7_3_a_stack_keeps_its_number_for_the_whole_movement_phase():
    """Twice a player moved the wrong stack because the numbers shifted as stacks moved
    (issue 30): a stack is asked by its place among the side's stacks as the phase began,
    so after one stack moves the others keep their numbers, and a number typed (at the
    terminal or in a --choose script) reaches the stack shown with it."""
    from sekigahara_pbem.play import console
    from sekigahara_pbem.play.session import TurnSession
    from sekigahara_pbem.protocol.component_files import load_components
    from sekigahara_pbem.rules.vocab import MOVEMENT
    from sekigahara_pbem.testing.random_player import playout

    comp = load_components()
    found = []

    def keep(before, after, side, action, events):
        phase = before["phase"]
        if before["step"] == MOVEMENT and phase["level"] is None and before["cards"][side]["hand"]:
            found.append((before, side))

    seed = 0
    while len(found) < 40:
        playout(comp, seed, max_actions=800, on_step=keep, plans=False)
        seed += 1
    checked = 0
    for state, side in found:
        session, asked, steps = TurnSession(state, comp, side), [], 0
        for _ in range(200):
            q = session.question
            if q is None or len(asked) == 3:
                break
            values = [c.value for c in q.choices]
            if q.key == "stack":
                asked.append(dict(zip(values, console.numbers(q), strict=True)))
                for loc, n in asked[-1].items():
                    assert console.parse(str(n), q) == loc
                value, steps = values[0], 0
            elif q.key == "movement":
                value = next((v for v in ("level", "move") if v in values), values[-1])
            elif q.key == "level":
                value = "limited"
            elif q.key == "step":
                places = [v for v in values if v not in (STOP, "split")]
                value = places[0] if steps == 0 or STOP not in values else STOP
                steps += 1
            elif q.pick == "one":
                value = q.default if q.default is not None else values[0]
            else:
                value = (
                    q.default if q.default else values[: q.pick if isinstance(q.pick, int) else 1]
                )
            session.answer(value)
        for before, after in zip(asked, asked[1:], strict=False):
            assert all(before[loc] == n for loc, n in after.items() if loc in before)
            checked += any(n != i for i, n in enumerate(after.values(), 1))
    assert checked >= 3, checked  # turns where the old numbering would have shifted


UKITA_AT_SUWA = {
    "week": 2, "step": "movement", "first": "ishida", "active": "ishida",
    "phase": {"level": "none", "entered": {"suwa": ["kofu"]}},
    "blocks": {"suwa": ["ukita-2a", "ukita-2b", "ukita-3a", "ukita-leader", "ukita-gun-a",
                        "tokugawa-2a"]},
    "hands": {"ishida": ["ukita-1", "ukita-2", "ukita-double-1", "ukita-swords-1"],
              "tokugawa": ["tokugawa-1"]},
}  # fmt: skip


def _ukita_battle(comp) -> dict:
    """Ishida attacks Suwa with five Ukita blocks and four cards: 32 deployments listed."""
    state, _ = apply(build_position(comp, UKITA_AT_SUWA), comp, "ishida", {"type": "end_movement"})
    return state


def test_8_2_2_a_long_battle_is_asked_card_first_and_cards_alike_once(comp):
    """Issue 41: a battle listed every block with every card (here 32 rows, ukita-1 and
    ukita-2 alike in clan, kind and bid). Now the card comes first, one of cards alike,
    then the blocks it deploys; a list past 9 is numbered with two digits."""
    state = _ukita_battle(comp)
    session = TurnSession(state, comp, "ishida")
    question = session.question
    assert question.key == "deploy_card"
    values = [c.value for c in question.choices]
    assert values[1:4] == ["ukita-1", "ukita-double-1", "ukita-swords-1"]  # not ukita-2
    assert values[0] == {"type": "deploy", "blocks": ["ukita-leader"]}  # 8.2.4: no card
    assert values[-1] == {"type": "finish"}
    assert _hint(question, comp) == "    (a number; u undo, q stop)"
    session.answer("ukita-double-1")
    question = session.question
    assert question.key == "deploy" and len(question.choices) == 5 + 10  # one block or two
    assert console.keys(question)[:2] == ["01", "02"] and console.keys(question)[-1] == "15"
    assert _hint(question, comp) == "    (two digits; u undo, q stop)"
    session.answer(question.choices[6].value)
    action = session.done[-1][1]
    assert action == {"type": "deploy", "card": "ukita-double-1",
                      "blocks": ["ukita-2a", "ukita-3a"]}  # fmt: skip
    apply(state, comp, "ishida", action)


CHILD = """
import json, sys
from sekigahara_pbem.play import console
from sekigahara_pbem.play.session import TurnSession
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.engine import apply
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.views import view
comp = load_components()
state = build_position(comp, json.loads(sys.argv[1]))
state, _ = apply(state, comp, "ishida", {"type": "end_movement"})
session = TurnSession(state, comp, "ishida")
console.run(session, comp, view(state, comp, "ishida"), console.terminal(), print)
print("built", json.dumps(session.done[-1][1]))
"""


def test_a_list_past_9_takes_two_digits_at_once_in_a_real_terminal(tmp_path):
    """Issue 41: in a list of 16, `1` waited for a second digit and, with the next
    answer's key, became 11. Past 9 the numbers are two digits, each answer taken at once
    as its second digit is typed."""
    env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(sys.executable, ["-c", CHILD, json.dumps(UKITA_AT_SUWA)],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=60,
                          dimensions=(50, 200))  # fmt: skip
    child.expect("deploy with which card")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("3")  # ukita-double-1, one key
    child.expect(" 07. Deploy ukita-2a")
    child.expect(r"\(two digits; u undo, q stop\)")
    child.send("07")  # no Enter
    child.expect(r'built \{"type": "deploy", "card": "ukita-double-1", '
                 r'"blocks": \["ukita-2a", "ukita-3a"\]\}')  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_7_1_the_summary_names_the_cards_discarded_to_redraw(comp):
    """Issue 41: before signing, a turn of no movement with cards cycled read "No
    movement (you may instead name cards ...)", naming none of them."""
    from sekigahara_pbem.reports.choices import describe_option

    action = {"type": "level", "level": "none", "cards": ["ukita-1", "ukita-swords-1"]}
    text = describe_option(action, comp, {}, "ishida")
    assert text == "No movement: ukita-1 and ukita-swords-1 discarded, as many drawn (7.1)"


def test_7_4_a_turn_file_cut_by_an_overrun_says_why_before_signing(comp):
    """Issue 41: an overrun during a move went straight to "Sign" with the other moves of
    the phase unmade and no word why. The summary before signing says the file ends
    there, and why: the terminal's and the page's."""
    session, packet_view = overrun_turn(comp)
    assert session.question is None and session.cut == "overrun"
    said: list[str] = []
    assert console.confirm(session, comp, packet_view, lambda *_: "", said.append)
    why = (
        "Your turn file ends here: after an overrun (7.4) only the referee knows what "
        "follows; your next packet goes on with your turn."
    )
    assert said[-2] == why
    page = moment.moment(session, comp, packet_view, 1, [], moment.Story([], []))
    assert page["cut"] == why and page["question"] is None
    session.undo()
    assert session.cut is None and session.question.key == "step"


def test_8_9_2_the_active_owner_is_asked_whether_to_come_out_not_told_it_is_attacked(comp):
    """Issue 41: with its own blocks besieged at Aizu, Ishida's own combat phase asked
    "Your castle at Aizu is attacked ... Stay inside" (a siege, only the attacker
    deploys), though inside nothing happens there this phase (8.9.2)."""
    spec = yaml.safe_load((SCENARIOS / "8_9_2_phasing_owner_inside_then_outside.yaml").read_text())[
        "position"
    ]
    state = build_position(comp, spec)
    for action in ({"type": "level", "level": "none", "cards": []}, {"type": "end_movement"}):
        state, _ = apply(state, comp, "ishida", action)
    session = TurnSession(state, comp, "ishida")
    shown = console.render(session.question, comp, view(state, comp, "ishida"), "ishida")
    assert shown[0] == (
        "Your blocks are besieged in the castle at Aizu (8.9.2): come out and fight, or "
        "stay inside?"
    )
    assert shown[1] == "   1. Stay inside the castle: no combat here this phase (8.9.2)"
    assert shown[2] == "   2. Come out and fight a battle (8.2)"


def test_6_3_8_1_the_bid_the_first_player_and_the_next_combat_say_what_they_decide(comp):
    """Issue 41: the bid, the first-player choice and the combat fought next were headed
    "Choose", at the terminal and on the page alike (they share the prompt)."""
    from sekigahara_pbem.rules.decisions import KINDS

    session = TurnSession(_bid_state(comp), comp, "ishida")
    assert session.question.key == KINDS["bid"].name
    assert labels.prompt(session.question, comp) == (
        "Bid for the turn order (6.3): the higher number chooses who moves first in both "
        "turns this week; both bids are discarded"
    )
    for kind, words in (
        ("choose_first", "You won the bid (6.3): who moves first in both turns this week?"),
        ("declare", "Your Combat Phase (8.1): where to fight next (every place where both "
                    "sides stand is fought, one at a time)"),
    ):  # fmt: skip
        assert labels.prompt(Question(KINDS[kind].name, ()), comp) == words


def _bid_state(comp) -> dict:
    """Week 2's bid (6.3), both hands dealt."""
    spec = {"week": 2, "step": "bid", "hands": {"ishida": ["ukita-1", "ukita-swords-1"],
                                                "tokugawa": ["tokugawa-1"]}}  # fmt: skip
    return build_position(comp, spec)
