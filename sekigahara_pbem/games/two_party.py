"""A two-party game (docs/two-party.md): no referee; each side holds its own secret and
computes every step its own knowledge allows. A side's directory's status, verification,
replay and reveal (`TwoPartyGame`), and what starts one (`TWO_PARTY`): the game's
creation by one player, the other's join, a demo."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import words
from ..i18n import gettext as _
from ..refusal import N_, Code, Refusal
from . import (
    Demo,
    Joining,
    NewGame,
    NotVerified,
    Replayed,
    Robot,
    Said,
    Shell,
    Status,
    Turn,
    Verified,
)

if TYPE_CHECKING:
    from ..crypto.keys import Identity
    from ..rules.components import Components


def _not_over(exc: Refusal) -> bool:
    """What `verify` and `replay` say as it is (exit 1): a game not started, or whose sides
    have not revealed yet. Anything else wrong with the archive does not verify (exit 3),
    as a referee's (docs/cli.md, "JSON"): a chain cut short or broken, a join that deals
    otherwise, a forfeit claimed before its deadline, a cheat."""
    from ..twoparty.side import NotRevealed

    return isinstance(exc, NotRevealed) or exc.code == Code.NOT_STARTED


@dataclass(frozen=True)
class TwoPartyGame:
    root: Path

    def status(self, now: str) -> Status:
        from ..twoparty import side as sides

        summary = sides.summary(self.root, now)
        lines = [
            f"{self.root}: {line}" if i == 0 else f"  {line}" for i, line in enumerate(summary)
        ]
        return Status(lines, sides.status(self.root))

    def verify(self) -> Verified:
        from ..twoparty import side as sides

        try:
            replay = sides.verify(self.root)
        except sides.NotRevealed:
            return self._before_the_reveals()
        except Refusal as exc:
            if _not_over(exc):
                raise
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None
        facts = {
            "mode": "two-party", "revealed": True, "entries": replay.retraced,
            "unrevealed": replay.unrevealed,
        }  # fmt: skip
        if replay.unrevealed is None:
            verified = _(
                "verified a two-party game: every record's signature and chain, both sides' "
                "reveals, and {entries} entries replayed from each side's secret and with both"
            )
            return Verified([verified.format(entries=replay.retraced)], facts)
        forfeit = _(
            "verified a two-party game won by forfeit: {side} did not reveal its secret within "
            "the deadline. Every record's signature and chain, and {entries} entries of the "
            "other side replayed from its secret; {side}'s records were checked only as far as "
            "its opponent could during the game"
        )
        return Verified([forfeit.format(side=replay.unrevealed, entries=replay.retraced)], facts)

    def _before_the_reveals(self) -> Verified:
        """What needs no secret, as a referee's archive is verified before its reveal: every
        record's signature, its place in the chain and its time, a forfeit's deadline, and
        the public form each record gives, rebuilt from the one before and checked by its
        hash (twoparty/public.py)."""
        from ..twoparty import public

        try:
            public.read(self.root)
        except Refusal as exc:
            if _not_over(exc):
                raise
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None
        records = len(list((self.root / "records").glob("[0-9][0-9][0-9][0-9]-*.txt")))
        checked = _(
            "checked {records} records of a two-party game: their signatures, chain and "
            "times, and the public form each gives"
        )
        waits = _(
            "not revealed yet: each side's records are replayed from its secret once both "
            "have revealed (seki reveal, then seki play DIR -r THEIR-REVEAL)"
        )
        facts = {"mode": "two-party", "revealed": False, "records": records, "notes": [waits]}
        return Verified([checked.format(records=records), _("note: {note}").format(note=waits)],
                        facts)  # fmt: skip

    def revealer(self) -> str | None:
        return None

    def play(self, turn: Turn, shell: Shell) -> None:
        from ..play import side_turn

        side_turn.play(self.root, turn, shell)

    def bot_pass(self, robot: Robot) -> Said:
        from ..bot import make_player
        from ..play import mailbox
        from ..play.two_party import robot_pass
        from ..twoparty import side as sides
        from ..twoparty.match import player_chooser

        settings = mailbox.for_robot(robot.mail_config)
        if robot.bot == "search":
            raise Refusal(N_("--two-party: the bot is heuristic or random"))
        side = sides.open_side(self.root, robot.identity)
        chooser = player_chooser(make_player(robot.bot, side.comp, side.game.options, robot.seed))
        return Said(made=robot_pass(side, settings, chooser, robot.now))

    def reveal(self, identity: Identity, now: str, force: bool) -> str:
        from ..twoparty import side as sides

        side = sides.open_side(self.root, identity)
        if side.result() is None and not force:
            raise Refusal(
                N_("the game is not over: reveal only at its end (or by agreement: --force)")
            )
        side.reveal(now)
        path = self.root / "reveals" / f"{side.side}.txt"
        wrote = _(
            "wrote {path}: send it to the other player; with theirs taken in (seki play {dir} "
            "--receive THEIR-REVEAL), anyone can run: seki verify {dir}"
        )
        return wrote.format(path=path, dir=self.root)

    def replay(self) -> Replayed:
        """Once both sides have revealed, each record as the game stood (the audit's
        replay with both secrets: every side's pieces as it held them); before that (a
        game still running, or won by a forfeit of the reveal), its public records only."""
        from ..rules.vocab import SIDES

        revealed = all((self.root / "reveals" / f"{s}.txt").is_file() for s in SIDES)
        try:
            return self._revealed() if revealed else self._public()
        except Refusal as exc:
            if _not_over(exc):
                raise
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None

    def _revealed(self) -> Replayed:
        from ..reports.replay import staged
        from ..rules.views import redact_event
        from ..twoparty import side as sides

        audit = sides.verify(self.root)
        records = [
            frame
            for p in audit.replayed()
            for frame in staged(
                p.n,
                p.state,
                [redact_event(e, None) for e in p.events],
                [(s, [redact_event(e, None) for e in events]) for s, events in p.stages],
                audit.comp,
            )
        ]
        return Replayed(_game_id(self.root), audit.comp, records)

    def _public(self) -> Replayed:
        """The public form after each entry of each record (its hidden items as counts),
        and each entry's action in words, as its author's record wrote it; an action held
        for the other side's answer changes nothing on the map yet."""
        from ..reports.replay import Record
        from ..rules.views import view
        from ..twoparty import knowledge as kn
        from ..twoparty import public

        shown = public.read(self.root)
        kc = kn.knowing(shown.comp)
        records = []
        for r in shown.records:
            said: list[str] = []
            seen = view(r.before, kc, None)  # each public form's view, made once
            if not r.entries:  # its randomness alone (or its commitments): the map as before
                records.append(Record(r.n, seen, [], {}))
            for part, (action, after) in enumerate(r.entries, start=1):
                said.append(_said(r.side, action, seen, kc))
                if after is not None:  # a held action changes nothing yet
                    seen = view(after, kc, None)
                records.append(Record(r.n, seen, [], {}, part, len(r.entries), 1, tuple(said)))
        return Replayed(shown.game.game_id, shown.comp, records)


def _game_id(root: Path) -> str:
    from ..protocol import documents as docs
    from ..twoparty import files

    return files.read_game(docs.read_capped(root / "game.txt"), "game.txt").game_id


def _said(side: str, action: dict | None, before: dict, kc: Components) -> str:
    """An entry of a two-party record in words, its side named: its action as the
    choices describe it, or the forced steps the rules took after it."""
    from ..reports import names
    from ..reports.choices import describe_option

    if action is None:
        return _("{side}: the game goes on by its rules (forced steps)").format(
            side=names.side(side)
        )
    return _("{side}: {action}").format(
        side=names.side(side), action=describe_option(action, kc, before, side)
    )


class TwoPartyMode:
    """A two-party game begun: one player creates it with its own join, the other joins
    it with its own; each side's secret stays in its own directory."""

    creator = None

    def create(self, new: NewGame, now: str) -> Said:
        from ..protocol.component_files import components_hash
        from ..reports import names
        from ..twoparty import files
        from ..twoparty import side as sides

        if "referee" in new.addresses:
            raise Refusal(N_("--email: a two-party game has no referee"))
        hours = None if new.deadlines is None else new.deadlines["hours"]
        text = files.make_game(
            new.game_id,
            components_hash(),
            new.options,
            new.players,
            new.creator,
            new.addresses,
            hours,
        )
        side = sides.create(new.directory, text, new.creator, now)
        other = next(s for s in new.players if s != side.side)
        created = _("created two-party game {game} in {path}: you play {side}")
        you = names.side(side.side)
        line = _("{side}: {name} fingerprint {fingerprint}")
        public = new.players[other]
        send = _(
            "Send {game_file} and {record} to the other player; they answer with: "
            "seki join game.txt --key NAME"
        )
        return Said(
            told=[
                created.format(game=side.game.game_id, path=new.directory, side=you),
                "  "
                + line.format(
                    side=names.side(other), name=public.name, fingerprint=public.fingerprint
                ),
                send.format(game_file=new.directory / "game.txt", record=side.records()[0]),
            ]
        )

    def join(self, joining: Joining, now: str) -> Said:
        """Your own directory for the game, with your join record."""
        from ..reports import names
        from ..twoparty import files
        from ..twoparty import side as sides

        if joining.send:
            raise Refusal(N_("--send is for a game with a referee: send your join yourself"))
        game = files.read_game(joining.text, "game.txt")
        side = game.side_of(joining.identity.public)
        if side is None:  # as sides.create refuses it, before a directory is named for it
            raise Refusal(sides.NOT_A_PLAYER, code=Code.WRONG_SIDE)
        root = joining.out or Path(f"{game.game_id}-{side}")
        joined = sides.create(root, joining.text, joining.identity, now)
        other = next(s for s in game.players if s != side)
        you = _("game {game}: you play {side} (two-party: no referee)")
        player = _(
            "{side}: {name} fingerprint {fingerprint} (compare it with the other player by "
            "another channel)"
        )
        public = game.players[other]
        wrote = _(
            "wrote {path}: send it to the other player; take theirs with: seki play {dir} "
            "--key {key} --receive THEIR-JOIN"
        )
        return Said(
            told=[
                you.format(game=game.game_id, side=names.side(side)),
                "  "
                + player.format(
                    side=names.side(other), name=public.name, fingerprint=public.fingerprint
                ),
                wrote.format(path=joined.records()[0], dir=root, key=joining.identity.name),
            ]
        )

    def demo(self, demo: Demo, now: str) -> Said:
        from ..twoparty.demo import run

        if demo.bot == "search":
            raise Refusal(N_("--two-party: the demo plays heuristic or random bots"))
        start = time.perf_counter()
        result = run(demo.directory, demo.bot, demo.seed)
        assert result.result is not None  # a demo is played to its end (twoparty/demo.py)
        over = _(
            "two-party demo game over after {records} records in {seconds} s: {result}, week "
            "{week}; both sides revealed and each verified the whole exchange ({entries} "
            "entries replayed)"
        )
        sizes = _("records: median {size} bytes; reading one took {ms} ms (median, in process)")
        sides = _("sides: {ishida} and {tokugawa}")
        directory = demo.directory
        return Said(
            made=[
                over.format(
                    records=result.records,
                    seconds=f"{time.perf_counter() - start:.1f}",
                    result=words.outcome(result.result),
                    week=result.weeks,
                    entries=result.retraced,
                ),
                sizes.format(
                    size=sorted(result.sizes)[len(result.sizes) // 2],
                    ms=f"{result.median_receive_ms:.0f}",
                ),
            ],
            told=[
                sides.format(ishida=directory / "ishida", tokugawa=directory / "tokugawa"),
                _("check it yourself: seki verify {path}").format(path=directory / "ishida"),
            ],
        )


TWO_PARTY = TwoPartyMode()
