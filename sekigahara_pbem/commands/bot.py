"""`seki bot`: a computer player for your side, as an ordinary keyed player: it reads only
the packet you give it, opens it with your key as `seki view` does, decides, and writes a
signed turn file for you to mail (docs/bot.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_, ngettext
from ..play.own import open_own_packet
from ..refusal import Code, Refusal
from .common import (
    Group,
    key_option,
    load_identity,
    said,
    tell,
    utc_now,
    write_new,
)
from .options import bot_option, budget_option

app = Group(help=N_("A computer player for your side."), no_args_is_help=True)

seed_option = click.option(
    "--seed",
    default="bot",
    help=N_("Seed of the bot's tie-breaks (and the search bot's samples)."),
)

plans_option = click.option(
    "--plans", is_flag=True, help=N_("The heuristic bot files its battle plan (fewer mails).")
)


@app.command("turn")
@click.argument(
    "packet",
    type=click.Path(path_type=Path),
    help=N_("The packet to answer (yours, sealed to you)."),
)
@key_option()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help=N_("Default: turn-<game>-<seq>-<side>.signed.txt"),
)
@bot_option
@budget_option
@seed_option
@plans_option
def turn(
    packet: Path, key: str | None, out: Path | None, bot: str, budget: float, seed: str, plans: bool
) -> None:
    """Answer a packet as a bot: every action it can decide before the opponent must
    answer (a whole movement phase in one file), signed with your key, ready to mail."""
    from ..bot import make_player, show_then_ask
    from ..crypto import signing
    from ..play import inbox
    from ..protocol import turns
    from ..protocol.component_files import load_components

    identity = load_identity(key)
    definition, opened = open_own_packet(packet, identity)
    if not opened.options:
        raise Refusal(
            N_("{path}: nothing is asked of you in this packet"),
            code=Code.NOT_ASKED,
            path=packet,
        )
    player = make_player(bot, load_components(), definition.options, seed, plans, budget)
    shown = inbox.shown_before(packet.parent, definition, identity, opened.seq) + opened.events
    actions = show_then_ask(player, shown, opened.view, opened.options)
    body = turns.body(definition, opened.side, opened.seq, actions)
    name = f"turn-{definition.game_id}-{opened.seq}-{opened.side}.signed.txt"
    out = out or Path(name)
    write_new(out, turns.seal(definition, signing.sign(body, identity), identity))
    kinds = ", ".join(a["type"] for a in actions)
    wrote = ngettext(
        "wrote {path}: {n} action ({kinds}); mail it to the referee",
        "wrote {path}: {n} actions ({kinds}); mail it to the referee",
        len(actions),
    )
    tell(wrote.format(path=out, n=len(actions), kinds=kinds))


@app.command("run")
@key_option()
@click.option(
    "--mail",
    type=click.Path(path_type=Path),
    help=N_("Your mail settings (default: mail.toml in your key directory)."),
)
@bot_option
@budget_option
@seed_option
@plans_option
@click.option(
    "--two-party",
    type=click.Path(path_type=Path),
    help=N_(
        "Play this two-party game's directory instead (seki docs two-party): take the "
        "other's records, answer, reveal at the end, mail it all to the other player."
    ),
)
def run(
    key: str | None,
    mail: Path | None,
    bot: str,
    budget: float,
    seed: str,
    plans: bool,
    two_party: Path | None,
) -> None:
    """One pass at your mailbox, for cron: join the games you are invited to, send your
    seed, answer every packet that asks something of you, and mail it all to the referee."""
    from ..games import Robot, bot_pass

    robot = Robot(load_identity(key), mail, bot, seed, plans, budget, utc_now())
    said(bot_pass(two_party, robot))
