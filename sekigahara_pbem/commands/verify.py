"""`seki reveal` (referee) and `seki verify` (anyone): publish the secrets after the game,
then replay and check the whole archive."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..i18n import N_, explain
from ..i18n import gettext as _
from .common import KeyOption, abort, load_identity, utc_now


def reveal(
    directory: Annotated[Path, typer.Argument(help=N_("The game directory."))],
    key: KeyOption = "referee",
    force: Annotated[
        bool, typer.Option(help=N_("Reveal before the game is over (by agreement)."))
    ] = False,
) -> None:
    """Publish every seed and the game's state key in reveal.txt, signed; in a two-party
    game, your own secret (send it to the other player)."""
    from ..pbem import verify as checks
    from ..twoparty import is_two_party

    if is_two_party(directory):
        _reveal_two_party(directory, key, force)
        return
    path = checks.reveal(directory, load_identity(key), utc_now(), force)
    typer.echo(
        _("wrote {path}; anyone can now run: seki verify {dir}").format(path=path, dir=directory)
    )


def verify(directory: Annotated[Path, typer.Argument(help=N_("The game directory."))]) -> None:
    """Replay the game from genesis and check every signature, commitment, draw, state hash,
    sealed state and packet; exit 1 at the first discrepancy."""
    from ..pbem import verify as checks
    from ..twoparty import is_two_party

    if is_two_party(directory):
        _verify_two_party(directory)
        return
    try:
        report = checks.verify(directory)
    except checks.Discrepancy as exc:
        abort(_("does not verify: {reason}").format(reason=explain(exc)))
    verified = _("verified {records} records, {turn_files} turn files, {packets} packets").format(
        records=report.records, turn_files=report.turn_files, packets=report.packets
    )
    if report.result:
        verified += _("; result: {result}").format(result=_outcome(report.result))
    typer.echo(verified)
    for note in report.notes:
        typer.echo(_("note: {note}").format(note=note))


def _outcome(result: dict) -> str:
    """A game's result in words: who won, how, and by which rule (and the score)."""
    from ..reports import names as n

    winner, rule = n.side(result.get("winner")), result.get("rule")
    if isinstance(result.get("points"), dict):
        score = ", ".join(f"{n.side(s)} {p}" for s, p in result["points"].items())
        text = _("{winner} wins on points ({score}; rule {rule})")
        return text.format(winner=winner, score=score, rule=rule)
    text = _("{winner} wins ({how}; rule {rule})")
    return text.format(winner=winner, how=n.how(result.get("how")), rule=rule)


def _verify_two_party(directory: Path) -> None:
    from ..twoparty import side as two_party
    from ..twoparty.exchange import Cheat

    try:
        replay = two_party.verify(directory)
    except Cheat as exc:
        abort(_("does not verify: {reason}").format(reason=explain(exc)))
    missing = replay.unrevealed
    if missing is None:
        verified = _(
            "verified a two-party game: every record's signature and chain, both sides' "
            "reveals, and {entries} entries replayed from each side's secret and with both"
        )
        typer.echo(verified.format(entries=replay.retraced))
        return
    forfeit = _(
        "verified a two-party game won by forfeit: {side} did not reveal its secret within "
        "the deadline. Every record's signature and chain, and {entries} entries of the other "
        "side replayed from its secret; {side}'s records were checked only as far as its "
        "opponent could during the game"
    )
    typer.echo(forfeit.format(side=missing, entries=replay.retraced))


def _reveal_two_party(directory: Path, key: str, force: bool) -> None:
    from ..twoparty import side as two_party

    side = two_party.open_side(directory, load_identity(key))
    if side.result() is None and not force:
        abort(_("the game is not over: reveal only at its end (or by agreement: --force)"))
    side.reveal(utc_now())
    path = directory / "reveals" / f"{side.side}.txt"
    wrote = _(
        "wrote {path}: send it to the other player; with theirs taken in (seki play {dir} "
        "--receive THEIR-REVEAL), anyone can run: seki verify {dir}"
    )
    typer.echo(wrote.format(path=path, dir=directory))
