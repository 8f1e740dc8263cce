"""`seki view`: a player reads a packet: the referee's signature is checked and the
player's own sealed section opened with the player's key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .common import KeyOption, abort, load_identity, read_input, saved_definition

MAX_OPTIONS_SHOWN = 30


def view(
    packet: Annotated[Path, typer.Argument(help="A packet the referee sent you.")],
    key: KeyOption,
    all_options: Annotated[
        bool, typer.Option("--all-options", help="List every legal option, not the first 30.")
    ] = False,
) -> None:
    """Show what happened, the situation as you see it, and the decision asked of you."""
    from ..pbem import documents, packets

    try:
        identity = load_identity(key)
        text = read_input(packet).decode("utf-8", errors="replace")
        definition = saved_definition(documents.peek_game(text, str(packet)))
        opened = packets.open_packet(definition, text, identity, str(packet))
    except (ValueError, RuntimeError) as exc:
        abort(str(exc))
    for line in render(definition.game_id, opened, all_options):
        typer.echo(line)
    ok, message = _check_openings(definition.game_id, opened)
    typer.echo(message)
    if not ok:
        abort("this packet opens items the referee had not committed to")


def _check_openings(game_id: str, packet) -> tuple[bool, str]:
    """Check what this packet opens against the commitments of the packet before it (if
    you have viewed it), and remember this packet's commitments for the next one."""
    from ..crypto.keystore import default_dir
    from ..pbem.commitments import check_opening
    from ..pbem.store import write_atomic

    path = default_dir() / "games" / f"{game_id}.roots.json"
    try:
        roots = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        roots = {}
    if packet.root:
        roots[str(packet.seq)] = packet.root
        write_atomic(path, json.dumps(roots, sort_keys=True))
    if not packet.openings:
        return True, "commitments: nothing opened in this packet"
    previous = roots.get(str(packet.seq - 1))
    if previous is None:
        return True, (
            f"commitments: {len(packet.openings)} opening(s) not checked: view packet "
            f"{packet.seq - 1} first"
        )
    bad = [o["value"] for o in packet.openings if not check_opening(o, previous)]
    if bad:
        return False, f"COMMITMENTS BROKEN: {bad} were not committed in packet {packet.seq - 1}"
    return True, (
        f"commitments: all {len(packet.openings)} item(s) shown here were committed in "
        f"packet {packet.seq - 1}"
    )


def render(game_id: str, packet, all_options: bool) -> list[str]:  # packet: Packet
    v = packet.view
    own = v.get("own", {})
    out = [
        f"game {game_id}, packet {packet.seq} for {packet.side}: week {v['week']} turn "
        f"{v['turn']}, {v['step']} step",
    ]
    if v.get("result"):
        out.append(f"GAME OVER: {v['result']}")
    out.append("what happened:")
    out += [f"  {_event(e)}" for e in packet.events] or ["  (nothing new)"]
    out.append(f"points: {v['points']}; castles: {_tally(v['castles'])}")
    out.append(f"your hand ({len(own.get('hand', []))}): {', '.join(own.get('hand', []))}")
    out.append(f"your bag: {len(own.get('bag', []))} blocks; recruitment box: "
               f"{', '.join(own.get('recruit', [])) or 'empty'}")  # fmt: skip
    out.append("the map (your blocks by name, the enemy's as counts):")
    enemy = "tokugawa" if packet.side == "ishida" else "ishida"
    for loc, counts in v["stacks"].items():
        mine = own.get("blocks", {}).get(loc, [])
        parts = [", ".join(mine)] if mine else []
        if counts.get(enemy):
            parts.append(f"{counts[enemy]} {enemy}")
        if counts.get("disks"):
            parts.append("disks " + ", ".join(counts["disks"]))
        out.append(f"  {loc}: {'; '.join(parts)}")
    fight = (v.get("combat") or {}).get("fight")
    if fight:
        out.append(f"combat at {fight['location']}: {json.dumps(fight, sort_keys=True)}")
    asked = [d for d in v["pending"] if d["side"] == packet.side]
    if not asked:
        waiting = ", ".join(f"{d['side']} ({d['decision']})" for d in v["pending"]) or "nobody"
        out.append(f"nothing is asked of you now; waiting for {waiting}")
        return out
    shown = packet.options if all_options else packet.options[:MAX_OPTIONS_SHOWN]
    out.append(f"YOUR DECISION: {asked[0]['decision']} — {len(packet.options)} legal option(s):")
    out += [f"  {json.dumps(o, sort_keys=True)}" for o in shown]
    if len(shown) < len(packet.options):
        out.append(f"  … {len(packet.options) - len(shown)} more (--all-options)")
    out.append(f"answer with a turn file: game {game_id}, side {packet.side}, answers {packet.seq}")
    return out


def _event(e: dict) -> str:
    rest = {k: v for k, v in e.items() if k not in ("type", "rule")}
    rule = f" ({e['rule']})" if e.get("rule") else ""
    return f"{e['type']}{rule}: {json.dumps(rest, sort_keys=True, ensure_ascii=False)}"


def _tally(castles: dict) -> str:
    counts: dict[str, int] = {}
    for side in castles.values():
        counts[side] = counts.get(side, 0) + 1
    return ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))
