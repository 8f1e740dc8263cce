"""Impact and loss arithmetic (8.3, 8.4, 8.7.1, 8.9.4), pinned by the rulebook's combat
example (13-13) and losses example."""

from __future__ import annotations

from sekigahara_pbem.rules.combat.impact import battle_losses, deployment_impact, siege_losses
from sekigahara_pbem.rules.components import Block


def blk(bid, clan, mon, ability=None, leader=0):
    return Block(id=bid, side="x", clan=clan, mon=mon, ability=ability, leader=leader)


MORI_LEADER = blk("mori-leader", "mori", 1, leader=1)
UKITA_A = blk("ukita-2a", "ukita", 2)
UKITA_B = blk("ukita-2b", "ukita", 2)
UESUGI_GUN = blk("uesugi-gun", "uesugi", 1, "gun")
MORI_GUN = blk("mori-gun-a", "mori", 1, "gun")
MAEDA_CAV = blk("maeda-cav", "maeda", 1, "cavalry")
TOKU_3A = blk("tokugawa-3a", "tokugawa", 3)
TOKU_1A = blk("tokugawa-1a", "tokugawa", 1)
TOKU_3B = blk("tokugawa-3b", "tokugawa", 3)


def test_8_3_rulebook_example_of_combat_reaches_13_to_13():
    ishida, tokugawa, scores = [], [], []
    score = {"ishida": 0, "tokugawa": 0}

    def deploy(side, block, swords=False):
        done = ishida if side == "ishida" else tokugawa
        impact = deployment_impact(block, done, swords).total
        done.append(block)
        score[side] += impact
        return impact

    steps = [
        ("ishida", MORI_LEADER, False, 1),  # leader without a card (8.2.4)
        ("tokugawa", MAEDA_CAV, True, 3),  # 1 mon + 2 cavalry
        ("ishida", UKITA_A, False, 2),  # double Ukita card, first block
        ("ishida", UKITA_B, False, 3),  # second block: 2 mon + 1 same daimyo (8.4.2)
        ("tokugawa", TOKU_3A, False, 3),
        ("ishida", UESUGI_GUN, False, 1),  # gun without swords counts nothing (8.4.1)
        ("tokugawa", TOKU_1A, False, 2),  # 1 mon + 1 earlier Tokugawa
        ("ishida", MORI_GUN, True, 6),  # 1 + 2 gun + 2 earlier gun + 1 earlier Mori
        ("tokugawa", TOKU_3B, False, 5),  # 3 + 2 earlier Tokugawa
    ]
    for side, block, swords, expected in steps:
        assert deploy(side, block, swords) == expected, block.id
        scores.append((score["ishida"], score["tokugawa"]))
    # the example's running scores, after each side's turn at the initiative
    for pair in [(1, 0), (1, 3), (6, 3), (6, 6), (7, 6), (7, 8), (13, 8), (13, 13)]:
        assert pair in scores
    assert scores[-1] == (13, 13)
    # 13-13 favours the defender (8.2.1): each side loses one for impact, Ishida one more
    assert battle_losses(13, lost_battle=True) == 2
    assert battle_losses(13, lost_battle=False) == 1


def test_8_3_3_same_daimyo_bonus_ignores_mon_of_earlier_blocks():
    # the rulebook's example: a 2-mon Tokugawa block after two other Tokugawa blocks scores 4
    assert deployment_impact(blk("t2", "tokugawa", 2), [TOKU_3A, TOKU_1A], False).total == 4


def test_8_4_1_special_attack_needs_an_ability_and_compounds_per_type():
    cav2 = blk("cav2", "date", 1, "cavalry")
    assert deployment_impact(cav2, [MAEDA_CAV], True).special == 4
    assert deployment_impact(cav2, [UESUGI_GUN], True).special == 2  # other type: no bonus
    assert deployment_impact(TOKU_3A, [MAEDA_CAV], True).special == 0  # no ability


def test_8_7_1_losses_example_five_and_nine_impact():
    assert battle_losses(5, lost_battle=False) == 0
    assert battle_losses(9, lost_battle=True) == 2


def test_8_9_4_siege_losses_one_per_seven_and_under_seven_harms_nothing():
    assert [siege_losses(n) for n in (0, 6, 7, 13, 14, 21)] == [0, 0, 1, 1, 2, 3]
