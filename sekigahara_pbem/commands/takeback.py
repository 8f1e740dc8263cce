"""`seki takeback`: ask to undo the last adjudication, or answer such a request. A takeback
needs both players' signatures (docs/protocol.md, "Takebacks")."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..i18n import gettext as _
from ..play.own import open_own_packet, saved_definition
from ..refusal import Code, Refusal
from .common import (
    Group,
    key_option,
    load_identity,
    read_text,
    tell,
    write_new,
)

app = Group(
    help=N_("Undo the last adjudication, with both players' consent."), no_args_is_help=True
)


@app.command("request")
@click.argument(
    "packet",
    type=click.Path(path_type=Path),
    help=N_("The packet of the record to undo (the last)."),
)
@key_option()
@click.option("--reason", default="", help=N_("Why, for your opponent."))
@click.option(
    "--out", type=click.Path(path_type=Path), help=N_("Default: takeback-<game>-<seq>.signed.txt")
)
def request(packet: Path, key: str | None, reason: str, out: Path | None) -> None:
    """Ask to take back the record this packet came with; mail the file to the referee."""
    from ..crypto import signing
    from ..protocol import takebacks

    identity = load_identity(key)
    definition, opened = open_own_packet(packet, identity)
    body = takebacks.request_body(definition, opened.side, opened.seq, opened.record, reason)
    out = out or Path(f"takeback-{definition.game_id}-{opened.seq}.signed.txt")
    write_new(out, signing.sign(body, identity))
    wrote = _("wrote {path}: mail it to the referee; your opponent is asked to consent")
    tell(wrote.format(path=out))


@app.command("answer")
@click.argument(
    "file", type=click.Path(path_type=Path), help=N_("The takeback request you were sent.")
)
@key_option()
@click.option("--accept/--refuse", required=True, help=N_("Accept or refuse the takeback."))
@click.option(
    "--out", type=click.Path(path_type=Path), help=N_("Default: FILE with .answer.signed.txt")
)
def answer(file: Path, key: str | None, accept: bool, out: Path | None) -> None:
    """Accept or refuse your opponent's takeback request; mail the answer to the referee."""
    from ..crypto import signing
    from ..protocol import documents, takebacks
    from ..rules.vocab import other

    identity = load_identity(key)
    text = read_text(file)
    definition = saved_definition(documents.peek_game(text, str(file)))
    req = takebacks.parse_request(definition, text, str(file))
    side = other(req.side)
    if definition.players[side] != identity.public:
        raise Refusal(
            N_("{file}: the answer must come from {side}, not {name}"),
            code=Code.WRONG_SIDE,
            file=file,
            side=side,
            name=identity.name,
        )
    body = takebacks.consent_body(definition, side, req.hash, "accept" if accept else "refuse")
    out = out or file.with_name(file.stem + ".answer.signed.txt")
    write_new(out, signing.sign(body, identity))
    if accept:
        wrote = _("wrote {path} (accepting the takeback of record {seq}): mail it to the referee")
    else:
        wrote = _("wrote {path} (refusing the takeback of record {seq}): mail it to the referee")
    tell(wrote.format(path=out, seq=req.undo))
