"""Writing and checking a turn file offline, as its player: a template listing the legal
options, then a check against the packet it answers and, action by action, with the rules
engine on a shadow of the game built from the player's own view (rules/shadow.py). What
the player cannot know (the enemy's hidden pieces, random draws) is stood in for, so a file
that passes is accepted unless a draw or a hidden piece it could not foresee changes
things."""

from __future__ import annotations

import yaml

from ..refusal import N_, Code, Phrase, Refusal, sides_waiting
from ..rules.components import Components
from ..rules.engine import ANYTIME, apply, pending
from ..rules.shadow import shadow_state
from ..rules.vocab import Malformed, RuleViolation
from .component_files import components_hash
from .game import Definition, tool_version
from .packets import Packet
from .turns import Turn

MAX_LISTED = 300


def template(game_id: str, packet: Packet) -> str:
    """A turn file to fill in: the header filled, the legal options as comments."""
    v = packet.view
    asked = next(d for d in v["pending"] if d["side"] == packet.side)
    where = f" at {asked['location']}" if asked.get("location") else ""
    count = len(packet.options)
    lines = [
        f"# Game {game_id}, packet {packet.seq}, {packet.side}: week {v['week']} turn "
        f"{v['turn']}, {v['step']} step.",
        f"# You are asked: {asked['decision']}{where}. Copy each action you choose under",
        "# 'actions:' (as '  - {...}'), in order; then: seki turn check, seki turn sign.",
        f"# {count} legal option{'' if count == 1 else 's'}:",
    ]
    for option in packet.options[:MAX_LISTED]:
        flow = yaml.safe_dump(
            option, default_flow_style=True, sort_keys=False, width=10_000
        ).strip()
        lines.append(f"#   - {flow}")
    if len(packet.options) > MAX_LISTED:
        lines.append(f"#   … and {len(packet.options) - MAX_LISTED} more (seki view --all-options)")
    lines += ["format: seki-turn/1", f"game: {game_id}"]
    if packet.definition is not None:  # the game.txt it is for (protocol/binding.py)
        lines.append(f"definition: {packet.definition}")
    lines += [
        f"side: {packet.side}",
        f"answers: {packet.seq}",
        f"tool: {tool_version()}",
        f"components: {components_hash()}",
        "actions:",
        "",
    ]
    return "\n".join(lines)


def problems_with(
    definition: Definition, turn: Turn, packet: Packet, comp: Components
) -> list[Refusal]:
    """What is wrong with a turn answering `packet`, checked on a state built from what the
    player knows: refusals, so that each is shown in the reader's language (i18n.explain)."""
    out = []
    if turn.side != packet.side:
        out.append(
            Refusal(
                N_("the packet is for {packet}, the file says {file}"),
                at="side",
                packet=packet.side,
                file=turn.side,
            )
        )
    if turn.answers != packet.seq:
        out.append(
            Refusal(
                N_("the packet is number {packet}, the file says {file}"),
                at="answers",
                packet=packet.seq,
                file=turn.answers,
            )
        )
    if out:
        return out
    state = shadow_state(comp, packet.view, definition.options)
    for i, action in enumerate(turn.actions):
        waiting = pending(state)
        anytime = isinstance(action, dict) and action.get("type") in ANYTIME
        if not anytime and not any(d["side"] == turn.side for d in waiting):
            return [
                Refusal(
                    N_(
                        "by then it is no longer your decision (waiting for {who}); "
                        "remove it and the rest, and send them when asked"
                    ),
                    code=Code.NOT_ASKED,
                    at=f"actions[{i}]",
                    who=sides_waiting(waiting, decisions=True) if waiting else Phrase(N_("nobody")),
                )
            ]
        try:
            state, _ = apply(state, comp, turn.side, action)
        except (RuleViolation, Malformed) as exc:
            return [
                Refusal("{reason}", code=exc.code, rule=exc.rule, at=f"actions[{i}]", reason=exc)
            ]
    return []


def signed_turn(
    definition: Definition, packet: Packet, actions: list[dict], identity, comp: Components
) -> str:
    """A signed turn file answering `packet` with `actions`, checked as `seki turn sign`
    checks one (ValueError naming the first problem), and sealed for the referee."""
    from ..crypto import signing
    from .turns import body, parse_body, seal

    text = body(definition, packet.side, packet.seq, actions)
    problems = problems_with(definition, parse_body(definition, text, "turn"), packet, comp)
    if problems:
        first = problems[0]
        raise Refusal(
            N_("the turn does not check: {problem}"),
            code=first.code,
            rule=first.rule,
            problem=first,
        )
    return seal(definition, signing.sign(text, identity), identity)


def stamped(text: str, definition: Definition) -> str:
    """The turn file naming the game's definition (without it the referee refuses it,
    protocol/binding.py) and, unless it names its component set already, this tool's version
    and component set (so that the referee can tell a version mismatch from a bad order)."""
    body = yaml.safe_load(text)
    if not isinstance(body, dict):
        return text
    extra = {} if "definition" in body else {"definition": definition.hash}
    if "components" not in body:
        extra |= {"tool": tool_version(), "components": components_hash()}
    if not extra:
        return text
    result = text.rstrip("\n") + "\n" + "".join(f"{k}: {v}\n" for k, v in extra.items())
    return result if yaml.safe_load(result).get("actions") == body.get("actions") else text
