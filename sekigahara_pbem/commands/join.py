"""`seki join`: a player answers the referee's game definition with a sealed seed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import KeyOption, abort, load_identity, read_text


def join(
    request: Annotated[Path, typer.Argument(help="The game definition the referee sent.")],
    key: KeyOption,
    out: Annotated[Path | None, typer.Option(help="Where to write the join file.")] = None,
) -> None:
    """Check the game definition, remember it, and write your signed join file."""
    from ..crypto.keystore import default_dir
    from ..pbem import game, joins
    from ..pbem.store import write_atomic

    try:
        identity = load_identity(key)
        text = read_text(request)
        definition = game.parse(text, str(request))
        answer = joins.make_join(definition, identity)
        side = definition.side_of(identity.public)
        write_atomic(default_dir() / "games" / f"{definition.game_id}.txt", text)
        out = out or Path(f"join-{definition.game_id}-{side}.txt")
        write_atomic(out, answer)
    except (ValueError, RuntimeError) as exc:
        abort(str(exc))
    typer.echo(f"game {definition.game_id}: you play {side}")
    typer.echo(
        f"  referee {definition.referee.name} fingerprint {definition.referee.fingerprint} "
        "(compare it with the referee by another channel)"
    )
    typer.echo(f"wrote {out}: mail it to the referee")
