"""The opening of a game: the players' joins, then their seeds, then the setup record
(rule 5). Every seed is committed to before any seed leaves its owner (protocol/joins.py);
the documents that start a game are checked by the same function here for the referee and
for `verify`."""

from __future__ import annotations

from ...crypto.seeds import game_seed
from ...i18n import gettext as _
from ...protocol import documents as docs
from ...protocol import joins
from ...protocol.game import Definition, tool_version
from ...protocol.store import GameDir, write_atomic
from ...refusal import N_, Code, Refusal, side_words
from ...rules.cycle.setup import setup
from ...rules.vocab import SIDES, other
from ..steps import Refused, Step
from . import writer
from .context import Game, joined

SETUP_LABEL = "setup (rule 5)"


def admit_join(game: Game, name: str, text: str, now: str) -> str:
    """A player's commitment to its seed: one per side, before the start (`now` unused:
    a join writes no record)."""
    join = joins.parse_join(game.definition, text, name)
    if join.first_format:
        raise Refused(
            N_(
                "a {format} join sends its seed before the other side has committed to its "
                "own; join again with this version of seki ({version})"
            ),
            code=Code.WRONG_VERSION,
            at=name,
            format=joins.JOIN_FORMAT_V1,
            version=tool_version(),
        )
    if game.gd.last_seq() > 0:
        raise _started(name)
    if game.gd.join(join.side).is_file():  # one join per side: no choosing between seeds
        raise Refused(
            N_("{side} has already joined this game; only its first join counts"),
            code=Code.DUPLICATE,
            at=name,
            side=join.side,
        )
    write_atomic(game.gd.join(join.side), text)
    game.commit(f"{join.side} joined")
    if all(game.gd.join(s).is_file() for s in SIDES) and game.mailing:
        return _(
            "{side} joined; both sides are in: each side is mailed the other's join, "
            "to answer with its seed"
        ).format(side=join.side)
    if all(game.gd.join(s).is_file() for s in SIDES):
        return _(
            "{side} joined; both sides are in: send each side the other's join "
            "(joins/ishida.txt to tokugawa, joins/tokugawa.txt to ishida) for its seed"
        ).format(side=join.side)
    return _("{side} joined; waiting for the other side").format(side=join.side)


def _started(name: str) -> Refused:
    return Refused(N_("the game has already started"), code=Code.NOT_STARTED, at=name)


def admit_seed(game: Game, name: str, text: str, now: str) -> str:
    """A player's seed, sent once it held the other's join; the second one starts the
    game."""
    seed_file = joins.parse_seed(game.definition, text, name)
    side = seed_file.side
    if game.gd.last_seq() > 0:
        raise _started(name)
    on_file = joined(game)
    if side not in on_file:
        raise Refused(
            N_("{side} has not joined yet; send the join first"),
            code=Code.NOT_STARTED,
            at=name,
            side=side_words(side),
        )
    joins.check_order(seed_file, on_file, name)
    if game.gd.seed(side).is_file():
        raise Refused(
            N_("{side} has already sent its seed"),
            code=Code.DUPLICATE,
            at=name,
            side=side_words(side),
        )
    joins.open_seed(game.definition, on_file[side], game.referee, seed_file.sealed_seed)
    write_atomic(game.gd.seed(side), text)
    game.commit(f"{side} sent its seed")
    if not all(game.gd.seed(s).is_file() for s in SIDES):
        return _("{side} sent its seed; waiting for {other}'s").format(side=side, other=other(side))
    _start(game, on_file, now)
    return _("{side} sent its seed; the game is set up (record 1)").format(side=side)


def player_seeds(game: Game, on_file: dict[str, joins.Join]) -> dict[str, bytes]:
    """Each player's seed, opened and checked against its join (from the join itself in
    games joined with the first format)."""
    seeds = {}
    for side, join in on_file.items():
        sealed = join.sealed_seed
        if sealed is None:
            path = game.gd.seed(side)
            seed_file = joins.parse_seed(game.definition, docs.read_capped(path), str(path))
            sealed = seed_file.sealed_seed
        seeds[side] = joins.open_seed(game.definition, join, game.referee, sealed)
    return seeds


def start_documents(
    gd: GameDir, definition: Definition, on_file: dict[str, joins.Join]
) -> list[tuple[str, str]]:
    """Record 1's inputs as (file, text): the joins, then each player's seed file, which
    must name the other side's join on file (none in first-format games)."""
    files = [(f"joins/{s}.txt", on_file[s].text) for s in SIDES]
    if any(on_file[s].first_format for s in SIDES):
        return files
    for side in SIDES:
        where = f"joins/{side}-seed.txt"
        seed_file = joins.parse_seed(definition, docs.read_capped(gd.seed(side)), where)
        if seed_file.side != side:
            raise Refusal(
                N_("the seed of {found}, not of {side}"),
                at=where,
                found=seed_file.side,
                side=side,
            )
        joins.check_order(seed_file, on_file, where)
        files.append((where, seed_file.text))
    return files


def _start(game: Game, on_file: dict[str, joins.Join], now: str) -> None:
    """Rule 5 setup from the three seeds; record 1 and the first packets."""
    seeds = player_seeds(game, on_file)
    seed = game_seed(
        game.secrets.seed, seeds["ishida"], seeds["tokugawa"], game_id=game.definition.game_id
    )
    state, events = setup(game.comp, seed, game.definition.options)
    inputs = writer.inputs(start_documents(game.gd, game.definition, on_file))
    writer.write(
        game, None, None, writer.Draft(Step(state, events, None), inputs, SETUP_LABEL, now)
    )
