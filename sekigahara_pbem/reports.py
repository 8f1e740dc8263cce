"""Reports rendered with Jinja from what a packet gives its recipient (templates/)."""

from __future__ import annotations

import json

from jinja2 import Environment, PackageLoader, StrictUndefined

MAX_OPTIONS_SHOWN = 30


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("sekigahara_pbem", "templates"),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # plain text; the HTML report will escape
    )
    env.filters["event"] = _event
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return env


def render_text(game_id: str, packet, all_options: bool = False) -> str:  # packet: Packet
    """The plain-text report of a packet for its recipient."""
    v = packet.view
    own = v.get("own", {})
    enemy = "tokugawa" if packet.side == "ishida" else "ishida"
    asked = next((d for d in v["pending"] if d["side"] == packet.side), None)

    def stack(loc: str, counts: dict) -> str:
        parts = [", ".join(own.get("blocks", {}).get(loc, []))]
        if counts.get(enemy):
            parts.append(f"{counts[enemy]} {enemy}")
        if counts.get("disks"):
            parts.append("disks " + ", ".join(counts["disks"]))
        return "; ".join(p for p in parts if p)

    template = _environment().get_template("report.txt.j2")
    return template.render(
        game=game_id,
        packet=packet,
        v=v,
        own=own,
        castles=_tally(v["castles"]),
        stack=stack,
        fight=(v.get("combat") or {}).get("fight"),
        asked=asked,
        shown=packet.options if all_options else packet.options[:MAX_OPTIONS_SHOWN],
        waiting=", ".join(f"{d['side']} ({d['decision']})" for d in v["pending"]) or "nobody",
    )


def _event(e: dict) -> str:
    rest = {k: v for k, v in e.items() if k not in ("type", "rule")}
    rule = f" ({e['rule']})" if e.get("rule") else ""
    return f"{e['type']}{rule}: {json.dumps(rest, sort_keys=True, ensure_ascii=False)}"


def _tally(castles: dict) -> str:
    counts: dict[str, int] = {}
    for side in castles.values():
        counts[side] = counts.get(side, 0) + 1
    return ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))
