"""`seki components`: check a component set (board, blocks, cards) before playing with it."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..i18n import gettext as _
from ..reports import names as n
from ..rules.components import CARD_KINDS
from .common import Group

app = Group(help=N_("Check board, block and card manifests."), no_args_is_help=True)


@app.command("check")
@click.argument(
    "directory",
    type=click.Path(path_type=Path),
    required=False,
    help=N_("Folder with board.yaml, blocks.yaml and cards.yaml (default: built-in set)."),
)
def check(directory: Path | None) -> None:
    """Load and validate a component set; print a summary or the first problem found."""
    from ..protocol.component_files import components_hash, load_components

    comp = load_components(directory)
    digest = components_hash(directory)
    locs = comp.locations.values()
    click.echo(_("{name}: OK (sha256 {digest})").format(name=comp.name, digest=digest[:16]))
    line = "  " + _("locations {locations}, roads {roads} ({highways} highway)")
    click.echo(
        line.format(
            locations=len(comp.locations), roads=len(comp.roads), highways=sum(comp.roads.values())
        )
    )
    for side, colour in (("ishida", N_("gold")), ("tokugawa", N_("black"))):
        blocks = [b for b in comp.blocks.values() if b.side == side]
        cards = [c for c in comp.cards.values() if c.deck == side]
        line = "  " + _(
            "{side} ({colour}): castles {castles}, blocks {blocks}, cards {cards} "
            "({loyalty} Loyalty Challenge)"
        )
        click.echo(
            line.format(
                side=side,
                colour=_(colour),
                castles=sum(1 for loc in locs if loc.castle == side),
                blocks=len(blocks),
                cards=len(cards),
                loyalty=sum(1 for c in cards if c.kind == "loyalty"),
            )
        )
        click.echo("    " + _("bids: {bids}").format(bids=_bids(cards)))
    line = "  " + _(
        "castles {castles}, resource locations {resources}, blocks {blocks}, cards {cards}, "
        "disks {disks}"
    )
    click.echo(
        line.format(
            castles=sum(1 for loc in locs if loc.castle),
            resources=sum(1 for loc in locs if loc.resource),
            blocks=len(comp.blocks),
            cards=len(comp.cards),
            disks=len(comp.disks),
        )
    )


def _bids(cards: list) -> str:
    """Each bid number of a deck (6.3) with the kinds of card that carry it."""
    kinds: dict[int, list[str]] = {}
    for c in sorted(cards, key=lambda c: CARD_KINDS.index(c.kind)):
        if c.kind not in kinds.setdefault(c.bid, []):
            kinds[c.bid].append(c.kind)
    return ", ".join(
        f"{bid} ({'/'.join(n.card_kind(k) for k in kinds[bid])})" for bid in sorted(kinds)
    )
