"""`seki turn`: a player checks and signs a turn file before mailing it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from ..play.own import open_own_packet, saved_definition
from ..refusal import Code, Refusal
from .common import (
    Group,
    abort,
    key_option,
    lang_option,
    load_identity,
    read_text,
    tell,
    use_language,
    write_new,
)

if TYPE_CHECKING:
    from ..protocol.game import Definition
    from ..protocol.turns import Turn

app = Group(help=N_("Check and sign your turn files."), no_args_is_help=True)


def _body(path: Path) -> tuple[Definition, Turn]:
    from ..protocol import documents, turns

    text = read_text(path)
    body = documents.load(text, str(path), turns.TURN_FORMAT)
    definition = saved_definition(documents.field(body, "game", str, str(path)))
    return definition, turns.parse_body(definition, text, str(path))


def _problems(file: Path, definition: Definition, turn: Turn, packet: Path, identity) -> tuple:
    """The packet a turn file answers, and the problems `seki turn check` finds in the
    file (each said on stderr as it is found)."""
    from ..protocol.checking import problems_with
    from ..protocol.component_files import load_components

    packet_game, opened = open_own_packet(packet, identity)
    if packet_game.game_id != definition.game_id:
        other = N_("{file}: game {game}, but {packet} is for another")
        raise Refusal(
            other, code=Code.WRONG_GAME, file=file, game=definition.game_id, packet=packet
        )
    problems = problems_with(definition, turn, opened, load_components())
    for problem in problems:
        click.echo(f"{file}: {explain(problem)}", err=True)
    return opened, problems


@app.command("new")
@click.argument("packet", type=click.Path(path_type=Path), help=N_("The packet you are answering."))
@key_option()
@click.option("--out", type=click.Path(path_type=Path), help=N_("Default: turn-<game>-<seq>.yaml"))
def new(packet: Path, key: str | None, out: Path | None) -> None:
    """Write a turn file template for the decision the packet asks of you, with every
    legal option listed as a comment, ready to edit, check and sign."""
    from ..protocol.checking import template

    definition, opened = open_own_packet(packet, load_identity(key))
    if not opened.options:
        nothing = N_("{path}: nothing is asked of you in this packet")
        raise Refusal(nothing, code=Code.NOT_ASKED, path=packet)
    out = out or Path(f"turn-{definition.game_id}-{opened.seq}.yaml")
    write_new(out, template(definition.game_id, opened))
    wrote = _("wrote {path}: put your actions under 'actions:', then seki turn check / sign")
    tell(wrote.format(path=out))


@app.command("check")
@click.argument("file", type=click.Path(path_type=Path), help=N_("Your unsigned turn file (YAML)."))
@click.option(
    "--packet", type=click.Path(path_type=Path), required=True, help=N_("The packet it answers.")
)
@key_option()
@lang_option
def check(file: Path, packet: Path, key: str | None, lang: str | None) -> None:
    """Run the order against your own view before you mail it: the game, side and packet
    answered, then every action with the rules engine on a state built from what you know;
    the first problem is reported with its rule."""

    use_language(lang)
    definition, turn = _body(file)
    opened, problems = _problems(file, definition, turn, packet, load_identity(key))
    if problems:
        text = ngettext(
            "{n} problem; fix it before signing", "{n} problems; fix them before signing",
            len(problems),
        )  # fmt: skip
        abort(text.format(n=len(problems)))
    ok = ngettext(
        "{file}: OK ({n} action answering packet {seq})",
        "{file}: OK ({n} actions answering packet {seq})",
        len(turn.actions),
    )
    click.echo(ok.format(file=file, n=len(turn.actions), seq=opened.seq))


@app.command("sign")
@click.argument("file", type=click.Path(path_type=Path), help=N_("Your turn file (YAML)."))
@click.option(
    "--packet",
    type=click.Path(path_type=Path),
    required=True,
    help=N_("The packet it answers (the file is checked first)."),
)
@key_option()
@click.option("--out", type=click.Path(path_type=Path), help=N_("Default: FILE with .signed.txt"))
def sign(file: Path, packet: Path, key: str | None, out: Path | None) -> None:
    """Check a turn file against the packet it answers (as `seki turn check` does) and,
    only if it passes, sign it with your key and seal it for the referee's eyes only,
    ready to mail."""
    from ..crypto import signing
    from ..protocol.checking import stamped
    from ..protocol.store import write_atomic
    from ..protocol.turns import seal

    definition, turn = _body(file)
    identity = load_identity(key)
    if definition.players[turn.side] != identity.public:
        raise Refusal(
            N_("{file}: side {side} is not played by {name}"),
            code=Code.WRONG_SIDE,
            file=file,
            side=turn.side,
            name=identity.name,
        )
    problems = _problems(file, definition, turn, packet, identity)[1]
    if problems:
        raise Refusal(N_("problems found: {n}; not signed"), code=Code.ILLEGAL, n=len(problems))
    out = out or file.with_name(file.stem + ".signed.txt")
    write_atomic(
        out, seal(definition, signing.sign(stamped(turn.text, definition), identity), identity)
    )
    tell(_("wrote {path}: mail it to the referee").format(path=out))


def _signed_turn(
    packet: Path, key: str | None, actions: list[dict], out: Path | None, what: str
) -> Path:
    from ..crypto import signing
    from ..protocol import turns
    from ..protocol.turns import seal

    identity = load_identity(key)
    definition, opened = open_own_packet(packet, identity)
    body = turns.body(definition, opened.side, opened.seq, actions)
    out = out or Path(f"{what}-{definition.game_id}-{opened.seq}-{opened.side}.signed.txt")
    write_new(out, seal(definition, signing.sign(body, identity), identity))
    return out


@app.command("resign")
@click.argument("packet", type=click.Path(path_type=Path), help=N_("Your latest packet."))
@key_option()
@click.option(
    "--out", type=click.Path(path_type=Path), help=N_("Default: resign-<game>-<seq>-<side>...")
)
def resign(packet: Path, key: str | None, out: Path | None) -> None:
    """Write your signed resignation: the game ends at once, your opponent wins."""
    path = _signed_turn(packet, key, [{"type": "resign"}], out, "resign")
    tell(_("wrote {path}: mail it to the referee to resign").format(path=path))


@app.command("extension")
@click.argument(
    "packet",
    type=click.Path(path_type=Path),
    help=N_("The packet whose decision you need time for."),
)
@key_option()
@click.option(
    "--out", type=click.Path(path_type=Path), help=N_("Default: extension-<game>-<seq>-<side>...")
)
def extension(packet: Path, key: str | None, out: Path | None) -> None:
    """Write a signed request for more time on the decision asked of you (the game's
    definition says how much, and how often)."""
    path = _signed_turn(packet, key, [{"type": "extension"}], out, "extension")
    tell(_("wrote {path}: mail it to the referee").format(path=path))
