"""The guided dialogues of rules/decisions/ (what `seki play` asks): every choice offered
leads to an action the engine accepts, and every legal action can be built — every listed
option of every kind, and moves the packet cannot list (splits, drop-offs, subsets of a
stack, force marches), generated at random and checked against the engine first.

The dialogue never spends a force-march card a group does not need, so legal moves that
waste one are left out of "every legal move"; of cards alike it deploys with the first, so
a deployment is built with the card alike to the one listed (docs/rulings.md, "Guided
choices")."""

from __future__ import annotations

import pytest

from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.decisions import current
from sekigahara_pbem.rules.decisions.stack_move import DROP, SPLIT, STOP
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.movement.movement import leadership
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.vocab import MOVEMENT, Malformed, RuleViolation
from sekigahara_pbem.testing.random_player import playout

GAMES = range(6)
MOVE_KEYS = {"level": "level", "move": "move", "muster": "muster", "mori": "mori"}


def _positions(comp, seed: int, every: int = 3) -> list[tuple[dict, str]]:
    """(state, side) before every `every`-th action of a random game."""
    found: list[tuple[dict, str]] = []

    def keep(before, after, side, action, events):
        if len(found) < 10_000 and rng.below(chooser, every) == 0:
            found.append((before, side))

    chooser = rng.new(f"{seed + 77:032x}")
    playout(comp, seed, max_actions=600, on_step=keep, plans=False)
    return [(s, side) for s, side in found if any(d["side"] == side for d in pending(s))]


def _random_answer(question, chooser):
    values = [c.value for c in question.choices]
    if question.pick == "one":
        return values[rng.below(chooser, len(values))]
    if isinstance(question.pick, int):
        need = question.pick
    else:
        top = min(len(values), question.limit or len(values))
        low = 0 if question.pick == "any" else 1
        need = low + rng.below(chooser, top - low + 1)
    pool = list(values)
    return [pool.pop(rng.below(chooser, len(pool))) for _ in range(need)]


def _drive(state, comp, side, answer) -> dict:
    """The action the dialogue builds from `answer`'s answers. Each step it offers leaves
    the movement it says, never less than none (the engine accepted the move so far)."""
    dialogue = current(state).dialogue(state, comp, side)
    question = next(dialogue)
    try:
        for _ in range(500):
            left = [c.note["left"] for c in question.choices if "left" in c.note]
            assert min(left, default=0) >= 0, (question.key, question.choices)
            question = dialogue.send(answer(question))
    except StopIteration as done:
        return done.value
    raise AssertionError("the dialogue does not end")


@pytest.mark.parametrize("seed", GAMES)
def test_every_guided_choice_leads_to_an_accepted_action(comp, seed):
    chooser = rng.new(f"{seed + 5:032x}")
    checked = 0
    for state, side in _positions(comp, seed):
        for _ in range(2):
            action = _drive(state, comp, side, lambda q: _random_answer(q, chooser))
            apply(state, comp, side, action)  # raises if the dialogue built a refused action
            checked += 1
    assert checked > 20


def _steer(target: dict, state: dict, comp):
    """Answers that build `target`: None when a needed answer is not offered."""
    groups = target.get("groups", [])
    path_of = {b: tuple(g["path"]) for g in groups for b in g["blocks"]}
    marches = [g["force_march"] for g in groups if g.get("force_march")]

    def answer(q):
        values = [c.value for c in q.choices]
        want = _wanted(q, target, values, path_of, marches, state, comp)
        ok = all(v in values for v in want) if isinstance(want, list) else want in values
        if not ok:
            raise LookupError(f"{q.key}: {want!r} is not offered ({values})")
        return want

    return answer


def _wanted(q, target, values, path_of, marches, state, comp):
    t = target["type"]
    key = q.key
    if key == "deploy_card":
        return target if target.get("card") is None else _alike(target["card"], values, comp)
    if key == "deploy" and target["type"] == "deploy" and target.get("card"):
        card = _alike(target["card"], [v.get("card") for v in values], comp)
        return {**target, "card": card}
    plain = ("bid", "choose_first", "declare", "deploy", "challenge", "challenge_none")
    if key in (*plain, "castle", "castle_sally"):
        return target
    if key == "movement":
        return MOVE_KEYS.get(t, t)
    if key in ("discard", "level_cards", "level_redraw", "mori_cards"):
        return list(target["cards"])
    if key == "level":
        return target["level"]
    if key in ("muster_option",):
        return target["option"]
    if key == "clan":
        return comp.blocks[target["blocks"][0]].clan
    if key in ("muster_to",):
        return target["to"]
    if key in ("muster_blocks", "mori_blocks"):
        return list(target["blocks"])
    if key == "muster_block":
        return target["blocks"][0]
    if key == "losses":
        return [u for u in target["units"] if u not in q.context["taken"]]
    if key == "castle_stay":
        return list(target.get("castle", []))
    if key == "retreat_to":
        return target["to"]
    if key == "stack":
        return target["from"]
    if key == "blocks":
        return list(path_of)
    if key == "leader":
        return target.get("leader")
    if key == "march_card":
        return marches.pop(0) if marches else values[0]
    if key in (DROP, SPLIT):
        return q_part[0]
    assert key == "step", key
    return _step(q, values, path_of)


def _alike(card: str, offered: list, comp) -> str | None:
    """The card offered that the rules cannot tell from `card` (the dialogue offers one
    of cards alike): the same clan, kind and bid."""
    alike = [c for c in offered if isinstance(c, str) and _face(c, comp) == _face(card, comp)]
    return alike[0] if alike else None


def _face(card: str, comp) -> tuple:
    spec = comp.cards[card]
    return (spec.deck, spec.kind, spec.bid, spec.clan)


q_part: list = [None]  # the blocks the last step answer decided to drop or split off


def _step(q, values, path_of):
    here = tuple(q.context["path"])
    blocks = q.context["blocks"]
    ending = [b for b in blocks if path_of[b] == here]
    if ending and len(ending) == len(blocks):
        return STOP
    if ending:
        q_part[0] = ending
        return DROP
    nexts = [path_of[b][len(here)] for b in blocks]
    others = [b for b, n in zip(blocks, nexts, strict=True) if n != nexts[0]]
    if others:
        q_part[0] = others
        return SPLIT
    return nexts[0] if nexts[0] in values else (nexts[0], True)


def _same(a: dict, b: dict, comp) -> bool:
    """Two actions alike but for the order of lists, which card pays a force march and
    which of cards alike deploys."""

    def norm(x: dict):
        if x["type"] == "deploy" and x.get("card"):
            x = {**x, "card": _face(x["card"], comp)}
        if x["type"] == "move":
            groups = {(frozenset(g["blocks"]), tuple(g["path"])) for g in x["groups"]}
            marches = sum(1 for g in x["groups"] if g.get("force_march"))
            return ("move", x["from"], x.get("leader"), frozenset(groups), marches)
        return tuple(
            sorted((k, str(sorted(v) if isinstance(v, list) else v)) for k, v in x.items())
        )

    return norm(a) == norm(b)


@pytest.mark.parametrize("seed", GAMES)
def test_every_listed_option_can_be_built_by_the_guided_choices(comp, seed):
    built = 0
    for state, side in _positions(comp, seed, every=4):
        for target in options(state, comp, side)[:40]:
            action = _drive(state, comp, side, _steer(target, state, comp))
            assert _same(action, target, comp), (target, action)
            built += 1
    assert built > 100


def _random_move(state, comp, side, chooser) -> dict | None:
    """A random tree of paths from a random stack: groups that share a beginning travel
    together; None if the engine refuses it even with a force march."""
    phase = state["phase"]
    stacks: dict[str, list[str]] = {}
    for b, w in sorted(state["blocks"].items()):
        mine = w in comp.locations and comp.blocks[b].side == side
        if mine and b not in phase["moved"] and b not in phase["arrived"]:
            stacks.setdefault(w, []).append(b)
    if not stacks:
        return None
    origin = sorted(stacks)[rng.below(chooser, len(stacks))]
    pool = list(stacks[origin])
    going = [
        pool.pop(rng.below(chooser, len(pool))) for _ in range(1 + rng.below(chooser, len(pool)))
    ]
    paths: list[list[str]] = []
    groups = []
    for _ in range(min(len(going), 1 + rng.below(chooser, 3))):
        base = paths[rng.below(chooser, len(paths))] if paths else []
        path = base[: rng.below(chooser, len(base) + 1)]
        for _ in range(rng.below(chooser, 3) + (0 if path else 1)):
            near = comp.adjacent[path[-1] if path else origin]
            path = path + [near[rng.below(chooser, len(near))]]
        paths.append(path)
        groups.append({"blocks": [], "path": path})
    for j, b in enumerate(going):
        groups[j % len(groups)]["blocks"].append(b)
    merged: dict[tuple, dict] = {}
    for g in groups:
        if g["blocks"] and g["path"]:
            merged.setdefault(tuple(g["path"]), {"blocks": [], "path": g["path"]})["blocks"] += g[
                "blocks"
            ]
    action = {"type": "move", "from": origin, "groups": list(merged.values())}
    leaders = [b for b in stacks[origin] if comp.blocks[b].leader]
    free_lead = leadership(state, comp, side, origin, None) is not None
    if (
        leaders and not free_lead and rng.below(chooser, 2)
    ):  # a leader claimed for nothing is left out
        action["leader"] = leaders[0]
    hand = sorted(state["cards"][side]["hand"])
    tries = [None] + ([*range(len(action["groups"]))] if hand else [])
    for marched in tries:
        attempt = {**action, "groups": [dict(g) for g in action["groups"]]}
        if marched is not None:
            attempt["groups"][marched]["force_march"] = hand[0]
        try:
            apply(state, comp, side, attempt)
        except (RuleViolation, Malformed):
            continue
        return attempt
    return None


@pytest.mark.parametrize("seed", GAMES)
def test_every_legal_move_can_be_built_by_the_guided_choices(comp, seed):
    chooser = rng.new(f"{seed + 9:032x}")
    built = 0
    for state, side in _positions(comp, seed, every=1):
        if (
            state["step"] != MOVEMENT
            or not state["phase"]["level"]
            or not state["phase"]["moves_left"]
            and state["phase"]["moves_left"] is not None
        ):
            continue
        for _ in range(30):
            target = _random_move(state, comp, side, chooser)
            if target is None:
                continue
            action = _drive(state, comp, side, _steer(target, state, comp))
            assert _same(action, target, comp), (target, action)
            built += 1
    assert built > 20
