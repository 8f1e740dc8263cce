"""The words of `seki play`: each question of a guided dialogue and each of its choices in
plain English, naming blocks, cards and locations as the reports do (reports/names.py)."""

from __future__ import annotations

from typing import cast

from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..reports import names as n
from ..reports.choices import describe_option
from ..rules.combat.impact import IMPACT_PER_LOSS
from ..rules.components import Components
from ..rules.decisions import Choice, Question
from ..rules.decisions.stack_move import DROP, SPLIT, STOP
from ..rules.vocab import LEVEL_WORDS, LEVELS

PROMPTS = {
    "bid": N_(
        "Bid for the turn order (6.3): the higher number chooses who moves first in both "
        "turns this week; both bids are discarded"
    ),
    "choose_first": N_("You won the bid (6.3): who moves first in both turns this week?"),
    "declare": N_(
        "Your Combat Phase (8.1): where to fight next (every place where both sides stand "
        "is fought, one at a time)"
    ),
    "discard": N_("Discard {cards}, face down (6.2)"),
    "level": N_("Movement level (7.1)"),
    "level_cards": N_("Spend {cards} for it (7.1)"),
    "level_redraw": N_("Discard any cards to draw as many new ones (7.1), or none"),
    "movement": N_("What next in your Movement Phase"),
    "stack": N_("Move which stack (7.3)"),
    "blocks": N_("Which blocks go (by default all but your protagonist, 2.1)"),
    "leader": N_("Claim a leader's +1 movement (7.3.4)"),
    "step": N_("{blocks} at {at}: where next (7.3)"),
    "drop": N_("Which blocks stay here"),
    "split": N_("Which blocks take another road from here"),
    "march_card": N_("Force march (7.3.3): spend which card"),
    "muster_option": N_(
        "Muster option (7.2): A = any blocks of one daimyo to its own "
        "location, shown; B = one block to any friendly location, unseen"
    ),
    "clan": N_("Which daimyo's blocks"),
    "muster_to": N_("Muster to"),
    "muster_blocks": N_("Which of its blocks (all by default)"),
    "muster_block": N_("Which block"),
    "mori_cards": N_("Discard which cards, one per Mōri block (9.3)"),
    "mori_blocks": N_("Which Mōri blocks come"),
    "deploy": N_("{fight} (8.5) — your impact {ours}, theirs {theirs}: deploy?"),
    "deploy_card": N_(
        "{fight} (8.5) — your impact {ours}, theirs {theirs}: deploy with which card?"
    ),
    "challenge": N_(
        "{fight} (8.6) — your impact {ours}, theirs {theirs}: challenge the loyalty of the "
        "deployment just made?"
    ),
    "challenge_none": N_(
        "{fight} (8.6): you hold no Loyalty Challenge card; you are asked only so that "
        "your opponent cannot tell whether you hold one"
    ),
    "castle": N_("Your castle at {at} is attacked (8.9.2): stay inside or come out?"),
    "castle_sally": N_(
        "Your blocks are besieged in the castle at {at} (8.9.2): come out and fight, or "
        "stay inside?"
    ),
    "losses": N_("{fight} (8.7.2) — your impact {ours}, theirs {theirs}: {lose}"),
    "castle_stay": N_("At most {most} may stay in the castle at {at} (8.8.4)"),
    "retreat_to": N_("Retreat from {at} to (8.8)"),
    "plan_declare": N_(
        "Battle plan. When you attack in several places, the order of combats (8.1)"
    ),
    "plan_castle": N_("When your castle is attacked and two blocks or fewer hold it (8.9.2)"),
    "plan_deploy": N_("In a battle: deploying (8.2-8.5)"),
    "plan_stop": N_("In a battle: when to finish, that is deploy nothing more in it (8.5)"),
    "plan_siege": N_(
        "In a siege you lay, only you deploy; the defenders lose one unit per full 7 impact (8.9.4)"
    ),
    "plan_challenge": N_("Loyalty Challenges against the enemy's deployments (8.6)"),
    "plan_losses": N_("Your losses where you have a choice (8.7.2)"),
    "plan_retreat": N_(
        "After a lost battle: retreat to any place the rules allow, and keep "
        "this many of your strongest blocks in a friendly castle (8.8)"
    ),
}

# by a plan question's answer, which may be a word or a number (`_plan_word`)
PLAN_WORDS: dict[str, dict[object, str]] = {
    "plan_declare": {"any": N_("fight every location in turn, by name")},
    "plan_castle": {
        "inside": N_("stay inside (a siege)"),
        "outside": N_("come out and fight"),
    },
    "plan_deploy": {
        "losing_most": N_("while losing, deploy what adds the most impact"),
        "always_most": N_("always deploy what adds the most impact"),
        "leaders_then_losing": N_(
            "leaders without a card first, then while losing the most impact"
        ),
    },
    "plan_stop": {"finish": N_("finish when no order above fits")},
    "plan_siege": {"all": N_("deploy all you can, the most impact first")},
    "plan_challenge": {
        "never": N_("never challenge"),
        "always": N_("always, with a card in hand"),
    },
    "plan_losses": {
        "fewest_mon": N_(
            "disks first, then the blocks of fewest mon (a 1-mon leader before a 3-mon "
            "block); your Ishida Mitsunari or Tokugawa Ieyasu last"
        ),
        "any": N_("disks first, then blocks without leader dots by fewest mon; leaders last"),
    },
    "plan_retreat": {},
}

WORDS = {
    "level": N_("choose the movement level (7.1)"),
    "move": N_("move a stack"),
    "muster": N_("muster from the Recruitment Box (7.2)"),
    "mori": N_("bring blocks from the Mōri Box (9.3)"),
    "end_movement": N_("end the Movement Phase"),
    STOP: N_("stop here"),
    DROP: N_("drop some blocks off here, the rest go on"),
    SPLIT: N_("split: some blocks take another road from here"),
    "A": N_("A: blocks of one daimyo, shown"),
    "B": N_("B: one block, unseen"),
}


def prompt(question: Question, comp: Components) -> str:
    """The question as a sentence."""
    ctx = dict(question.context)
    at = ctx.get("at")
    # a step's moving blocks and its path so far, lists (rules/decisions/stack_move.py)
    blocks = cast(list, ctx.get("blocks", []))
    words = {
        "pick": question.pick,
        "limit": question.limit,
        "at": n.loc(comp, at) if at else "",
        "blocks": n.count(len(blocks), "block"),
        "fight": _fight(ctx.get("fight"), n.loc(comp, at) if at else ""),
        "ours": ctx.get("ours", ""),
        "theirs": ctx.get("theirs", ""),
    }
    if isinstance(question.pick, int):
        words["cards"] = n.count(question.pick, "card")
        text = ngettext("lose which unit?", "lose which {n} units?", question.pick)
        words["lose"] = text.format(n=question.pick)
    if question.limit is not None:
        words["most"] = n.count(question.limit, "block")
    known = PROMPTS.get(question.key)
    text = _(known).format(**words) if known else question.key
    if question.key == "step" and ctx.get("path"):
        text += " " + _("(so far: {path})").format(path=n.path(comp, cast(list, ctx["path"])))
    return text


CUT_BY = {
    "overrun": N_("an overrun (7.4)"),
    "draw": N_("a card draw (3.3)"),
    "reshuffle": N_("a reshuffle (3.3)"),
    "challenge": N_("a Loyalty Challenge (8.6)"),
}


def _set_off(event_type: str) -> str:
    """What an action set off that only the referee knows, in words (`CUT_BY`)."""
    return _(CUT_BY[event_type]) if event_type in CUT_BY else _("what this action set off")


def cut(event_type: str) -> str:
    """Why a turn file ends while its side still decides (play/session.py, `cut`)."""
    what = _set_off(event_type)
    return _(
        "Your turn file ends here: after {what} only the referee knows what follows; "
        "your next packet goes on with your turn."
    ).format(what=what)


def unseen(event_type: str) -> str:
    """Why the page shows the game as it stood before the last answer (web/moment.known):
    what followed it, only the referee knows."""
    what = _set_off(event_type)
    return _(
        "The map, your hand and the counts are as they stood before your last answer: "
        "what follows it ({what}) only the referee knows, and your next packet shows it."
    ).format(what=what)


def _fight(kind: object, where: str) -> str:
    """'Battle at Gifu', 'Siege of Gifu' (8.9.4)."""
    if kind == "siege":
        return _("Siege of {where}").format(where=where)
    return _("Battle at {where}").format(where=where)


def label(choice: Choice, question: Question, comp: Components, view: dict, side: str) -> str:
    """One choice as words."""
    value, note = choice.value, dict(choice.note)
    if isinstance(value, dict):  # a whole action
        return describe_option(value, comp, view, side)
    if question.key in PLAN_WORDS:
        return _plan_word(question.key, value)
    if question.key == "level":
        name = cast(str, value)  # the question offers the levels by name (7.1)
        cost, moves = LEVELS[name]
        moves_text = _("every stack") if moves is None else n.count(moves, "stack move")
        level = _(LEVEL_WORDS[name]) if name in LEVEL_WORDS else name
        return f"{level}: {n.count(cost, 'card')}, {moves_text}"
    if question.key == "leader":
        if value is None:
            return _("no leader bonus")
        leader = cast(str, value)  # but None, the question offers the stack's leaders' ids
        return _("leader {block}").format(block=n.block(comp, leader))
    if isinstance(value, tuple):  # a location only a force march reaches
        return _("{where} (force march: spends a card)").format(where=n.loc(comp, value[0]))
    if question.key == "clan":  # the Mōri daimyo mustered (7.2), not the Mōri Box (9.3)
        clan = cast(str, value)  # the question offers the daimyo by id (7.2)
        return comp.clan_names.get(clan, clan)
    if isinstance(value, str) and value in WORDS:
        text = _(WORDS[value])
        if value == "move" and note.get("moves_left") is not None:
            left = cast(int, note["moves_left"])  # the Movement Phase's moves left (7.1)
            text += " " + _("({moves} left)").format(moves=n.count(left, "move"))
        return text
    return _named(value, note, comp)


def _plan_word(key: str, value: object) -> str:
    if value == "ask":
        return _("ask me each time (by mail)")
    if key == "plan_stop" and isinstance(value, int):
        text = _("finish once you lead by {n} impact or more, or when no order fits")
        return text.format(n=value)
    if key == "plan_siege" and isinstance(value, int):
        losses = value // IMPACT_PER_LOSS
        text = ngettext(
            "deploy the most impact until yours reaches {n} (the defenders lose {k} unit), "
            "then finish",
            "deploy the most impact until yours reaches {n} (the defenders lose {k} units), "
            "then finish",
            losses,
        )
        return text.format(n=value, k=losses)
    if key == "plan_challenge" and isinstance(value, int):
        return _("against a deployment that brought {n} or more impact").format(n=value)
    if key == "plan_retreat":
        blocks = n.count(value, "block") if isinstance(value, int) else str(value)
        return _("retreat, keeping {blocks} in the castle").format(blocks=blocks)
    word = PLAN_WORDS[key].get(value)
    return _(word) if word else str(value)


def _named(value: object, note: dict, comp: Components) -> str:
    if not isinstance(value, str):
        return str(value)
    if value in comp.locations:
        text = n.loc(comp, value)
        if "blocks" in note:
            blocks = n.count(note["blocks"], "block")
            text += " " + _("({blocks} may move)").format(blocks=blocks)
        if "left" in note:
            text += " " + _("({n} more after)").format(n=note["left"])
        return text
    if value in comp.cards:
        return n.card(comp, value)
    return n.unit(comp, value)
