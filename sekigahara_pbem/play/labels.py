"""The words of `seki play`: each question of a guided dialogue and each of its choices in
plain English, naming blocks, cards and locations as the reports do (reports/names.py)."""

from __future__ import annotations

from ..reports import names as n
from ..reports.choices import describe_option
from ..rules.components import Components
from ..rules.decisions import Choice, Question
from ..rules.decisions.stack_move import DROP, SPLIT, STOP
from ..rules.vocab import LEVELS

PROMPTS = {
    "option": "Choose",
    "discard": "Discard {pick} cards, face down (6.2)",
    "level": "Movement level (7.1)",
    "level_cards": "Spend {pick} card(s) for it (7.1)",
    "level_redraw": "Discard any cards to draw as many new ones (7.1), or none",
    "movement": "What next in your Movement Phase",
    "stack": "Move which stack (7.3)",
    "blocks": "Which blocks go (all by default)",
    "leader": "Claim a leader's +1 movement (7.3.4)",
    "step": "{blocks} at {at}: where next (7.3)",
    "drop": "Which blocks stay here",
    "split": "Which blocks take another road from here",
    "march_card": "Force march (7.3.3): spend which card",
    "muster_option": "Muster option (7.2): A = any blocks of one daimyo to its own "
    "location, shown; B = one block to any friendly location, unseen",
    "clan": "Which daimyo's blocks",
    "muster_to": "Muster to",
    "muster_blocks": "Which of its blocks (all by default)",
    "muster_block": "Which block",
    "mori_cards": "Discard which cards, one per Mōri block (9.3)",
    "mori_blocks": "Which Mōri blocks come",
    "losses": "Lose {pick} of these (8.7.2)",
    "castle_stay": "Up to {limit} blocks may stay in the castle (8.8.4)",
    "retreat_to": "Retreat to (8.8)",
    "plan_declare": "Battle plan. When you attack in several places, the order of combats (8.1)",
    "plan_castle": "When your castle is attacked and two blocks or fewer hold it (8.9.2)",
    "plan_deploy": "Deploying in battles and sieges (8.2-8.5)",
    "plan_stop": "When no entry of the plan fits, or you lead enough (8.5)",
    "plan_challenge": "Loyalty Challenges against the enemy's deployments (8.6)",
    "plan_losses": "Your losses where you have a choice (8.7.2)",
    "plan_retreat": "After a lost battle: retreat to any place the rules allow, and keep "
    "this many of your strongest blocks in a friendly castle (8.8)",
}

PLAN_WORDS = {
    "plan_declare": {"any": "fight every location in turn, by name"},
    "plan_castle": {"inside": "stay inside (a siege)", "outside": "come out and fight"},
    "plan_deploy": {
        "losing_most": "while losing, deploy what adds the most impact",
        "always_most": "always deploy what adds the most impact",
        "leaders_then_losing": "leaders without a card first, then while losing the most impact",
    },
    "plan_stop": {"finish": "finish (deploy nothing more)"},
    "plan_challenge": {"never": "never challenge", "always": "always, with a card in hand"},
    "plan_losses": {"weakest": "lose disks first, then the weakest blocks"},
    "plan_retreat": {},
}

WORDS = {
    "level": "choose the movement level (7.1)",
    "move": "move a stack",
    "muster": "muster from the Recruitment Box (7.2)",
    "mori": "bring blocks from the Mōri Box (9.3)",
    "end_movement": "end the Movement Phase",
    STOP: "stop here",
    DROP: "drop some blocks off here, the rest go on",
    SPLIT: "split: some blocks take another road from here",
    "A": "A: blocks of one daimyo, shown",
    "B": "B: one block, unseen",
}


def prompt(question: Question, comp: Components) -> str:
    """The question as a sentence."""
    ctx = dict(question.context)
    at = ctx.get("at")
    blocks = ctx.get("blocks", [])
    words = {
        "pick": question.pick,
        "limit": question.limit,
        "at": n.loc(comp, at) if at else "",
        "blocks": n.plural(len(blocks), "block"),
    }
    text = PROMPTS.get(question.key, question.key).format(**words)
    if question.key == "step" and ctx.get("path"):
        text += f" (so far: {n.path(comp, ctx['path'])})"
    return text


def label(choice: Choice, question: Question, comp: Components, view: dict, side: str) -> str:
    """One choice as words."""
    value, note = choice.value, dict(choice.note)
    if question.key == "option":
        return describe_option(value, comp, view, side)
    if question.key in PLAN_WORDS:
        return _plan_word(question.key, value)
    if question.key == "level":
        cost, moves = LEVELS[value]
        moves_text = "every stack" if moves is None else n.plural(moves, "stack move")
        return f"{value}: {n.plural(cost, 'card')}, {moves_text}"
    if question.key == "leader":
        return "no leader bonus" if value is None else f"leader {n.block(comp, value)}"
    if isinstance(value, tuple):  # a location only a force march reaches
        return f"{n.loc(comp, value[0])} (force march: spends a card)"
    if isinstance(value, str) and value in WORDS:
        text = WORDS[value]
        if value == "move" and note.get("moves_left") is not None:
            text += f" ({n.plural(note['moves_left'], 'move')} left)"
        return text
    if question.key == "clan":
        return comp.clan_names.get(value, value)
    return _named(value, note, comp)


def _plan_word(key: str, value: object) -> str:
    if value == "ask":
        return "ask me each time (by mail)"
    if key == "plan_stop" and isinstance(value, int):
        return f"stop at a lead of {value} or more, else finish"
    if key == "plan_challenge" and isinstance(value, int):
        return f"against a deployment that brought {value} or more impact"
    if key == "plan_retreat":
        return f"retreat, keeping {value} block(s) in the castle"
    return PLAN_WORDS[key].get(value, str(value))


def _named(value: object, note: dict, comp: Components) -> str:
    if not isinstance(value, str):
        return str(value)
    if value in comp.locations:
        text = n.loc(comp, value)
        if "blocks" in note:
            text += f" ({n.plural(note['blocks'], 'block')} may move)"
        if "left" in note:
            text += f" ({note['left']} more after)"
        return text
    if value in comp.cards:
        return n.card(comp, value)
    return n.unit(comp, value)
