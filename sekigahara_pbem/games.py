"""A game directory opened once, whichever mode it was played in (issue 29): a referee's
game (`pbem/`) or a two-party game (`twoparty/`), with one interface for what the
commands ask of any game: its status, its verification, its reveal. The commands call it
and print; this is the one place that tells the modes apart, so a command never branches
on the mode.

The words are made here, in the reader's language, as the commands printed them; each
mode's own modules are imported only when its game is opened (the two-party stack costs a
referee's game 20 ms)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from . import words
from .i18n import gettext as _
from .refusal import N_, Refusal
from .twoparty import is_two_party

if TYPE_CHECKING:
    from .crypto.keys import Identity
    from .reports.replay import Record
    from .rules.components import Components


class NotVerified(Refusal):
    """An archive that does not verify: the discrepancy (a referee's game) or the cheat
    (a two-party game) it wraps says where and why."""


@dataclass(frozen=True)
class Status:
    """What `status` found: in words for a person (`lines`), and as facts for a program
    (`facts`, JSON-ready: the mode, the records, what the game waits for from whom)."""

    lines: list[str]
    facts: dict


@dataclass(frozen=True)
class Verified:
    """What `verify` found: in words for a person (`lines`), and as facts for a program
    (`facts`, JSON-ready: the mode, the counts, the result)."""

    lines: list[str]
    facts: dict


@dataclass(frozen=True)
class Replayed:
    """What `replay` found: the game's id, its component set, and its records as the
    replay page shows them."""

    game_id: str
    comp: Components
    records: list[Record]


class Game(Protocol):
    @property
    def root(self) -> Path:
        """The game's directory."""
        ...

    def status(self, now: str) -> Status:
        """The last record and what the game waits for, from whom (public information)."""
        ...

    def verify(self) -> Verified:
        """The archive replayed and checked whole: what was verified; NotVerified at the
        first thing that is wrong."""
        ...

    def reveal(self, identity: Identity, now: str, force: bool) -> str:
        """Publish this key's secrets, at the end of the game (or by agreement: force);
        what was written, in words."""
        ...

    def replay(self) -> Replayed:
        """The archive verified, then each record as `seki replay` shows it: its map, its
        events and, once revealed, each side's view; NotVerified if it does not verify."""
        ...

    def revealer(self) -> str | None:
        """The key that reveals when none is named: the referee's, as game.txt names it;
        None in a two-party game, where each player reveals its own."""
        ...


def open_game(path: Path) -> Game:
    """The game `path` names (store.game_root: a game directory, or a `seki solo`
    folder), as its game.txt says it was played."""
    from .protocol.store import game_root

    root = game_root(path)
    return TwoPartyGame(root) if is_two_party(root) else RefereeGame(root)


@dataclass(frozen=True)
class RefereeGame:
    root: Path

    def status(self, now: str) -> Status:
        facts = _referee_facts(self.root)
        if facts["last"] is None:
            return Status(_waiting_to_start(facts), facts)
        head = _("game {game}: record {seq} ({label}) at {time}")
        head = head.format(game=facts["game"], **facts["last"])
        if facts["over"]:
            return Status([head, "  " + _game_over(facts["result"])], facts)
        asked = [_awaited(d, now) for d in facts["waiting"]]
        asks = _("{side} asks to take back record {seq}; waiting for the answer")
        takebacks = [asks.format(side=t["side"], seq=t["record"]) for t in facts["takebacks"]]
        return Status([head, *asked, *("  " + line for line in takebacks)], facts)

    def verify(self) -> Verified:
        from .referee import verify as checks

        try:
            report = checks.verify(self.root)
        except checks.Discrepancy as exc:
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None
        verified = _("verified {records} records, {turn_files} turn files, {packets} packets")
        line = verified.format(
            records=report.records, turn_files=report.turn_files, packets=report.packets
        )
        if report.result:
            line += _("; result: {result}").format(result=words.outcome(report.result))
        lines = [line, *(_("note: {note}").format(note=note) for note in report.notes)]
        facts = {
            "mode": "referee", "records": report.records, "turn_files": report.turn_files,
            "packets": report.packets, "result": report.result, "notes": report.notes,
        }  # fmt: skip
        return Verified(lines, facts)

    def revealer(self) -> str | None:
        from .protocol import game
        from .protocol.store import GameDir

        return game.load(GameDir(self.root)).referee.name

    def reveal(self, identity: Identity, now: str, force: bool) -> str:
        from .referee import verify as checks

        path = checks.reveal(self.root, identity, now, force)
        wrote = _("wrote {path}; anyone can now run: seki verify {dir}")
        return wrote.format(path=path, dir=self.root)

    def replay(self) -> Replayed:
        from .protocol import game
        from .protocol.component_files import game_components
        from .protocol.store import GameDir
        from .referee import verify as checks
        from .reports.archive import last_record, replayed

        gd = GameDir(self.root)
        definition = game.load(gd)
        last_record(gd)
        try:  # the archive is checked first; a revealed one gives each record's state
            checked = checks.verify(self.root)
        except checks.Discrepancy as exc:
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None
        comp = game_components(self.root, definition.components)
        records = replayed(gd, comp, checked.bodies, checked.states, checked.stages)
        return Replayed(definition.game_id, comp, records)


@dataclass(frozen=True)
class TwoPartyGame:
    root: Path

    def status(self, now: str) -> Status:
        from .twoparty import side as sides

        summary = sides.summary(self.root, now)
        lines = [
            f"{self.root}: {line}" if i == 0 else f"  {line}" for i, line in enumerate(summary)
        ]
        return Status(lines, sides.status(self.root))

    def verify(self) -> Verified:
        from .twoparty import side as sides
        from .twoparty.exchange import Cheat

        try:
            replay = sides.verify(self.root)
        except Cheat as exc:
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None
        facts = {"mode": "two-party", "entries": replay.retraced, "unrevealed": replay.unrevealed}
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

    def revealer(self) -> str | None:
        return None

    def reveal(self, identity: Identity, now: str, force: bool) -> str:
        from .twoparty import side as sides

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
        """Only a game both sides revealed: before, its records hold the hidden items
        under handles no map can draw (a game won by a forfeit of the reveal too)."""
        from .protocol import documents as docs
        from .reports.replay import staged
        from .rules.views import redact_event
        from .twoparty import files
        from .twoparty import side as sides
        from .twoparty.exchange import Cheat

        try:
            audit = sides.verify(self.root)
        except Cheat as exc:
            raise NotVerified("{reason}", code=exc.code, reason=exc) from None
        if audit.unrevealed is not None:
            raise Refusal(
                N_("{side} never revealed its secret: a two-party game replays once both have"),
                side=audit.unrevealed,
            )
        game_id = files.read_game(docs.read_capped(self.root / "game.txt"), "game.txt").game_id
        comp = audit.comp
        records = [
            frame
            for p in audit.replayed()
            for frame in staged(
                p.n,
                p.state,
                [redact_event(e, None) for e in p.events],
                [(s, [redact_event(e, None) for e in events]) for s, events in p.stages],
                comp,
            )
        ]
        return Replayed(game_id, comp, records)


def _referee_facts(root: Path) -> dict:
    """A referee's game's status as facts (JSON-ready, `seki status --json`): the game,
    its records and the last one, whether it is over and how it ended, what it waits for
    from whom (a join, a seed, or a decision: asked in which packet, when, due when), and
    the takebacks asked and not answered."""
    from .protocol import chain, game
    from .protocol.store import GameDir

    gd = GameDir(root)
    definition = game.load(gd)
    seq = gd.last_seq()
    facts: dict = {
        "mode": "referee", "game": definition.game_id, "records": seq, "last": None,
        "over": False, "result": None, "waiting": [], "takebacks": [],
    }  # fmt: skip
    if seq == 0:
        for what, path in (("join", gd.join), ("seed", gd.seed)):
            missing = [s for s in definition.players if not path(s).is_file()]
            if missing:
                return facts | {"waiting": [{"side": s, "for": what} for s in missing]}
        return facts
    body = chain.read_record(gd, definition, seq).body
    facts["last"] = {"seq": seq, "label": body["label"], "time": body["time"]}
    if not body["pending"]:
        final = [e for e in body["events"] if e.get("type") == "game_over"]
        result = {k: v for k, v in final[0].items() if k != "type"} if final else None
        return facts | {"over": True, "result": result}
    facts["waiting"] = [_decision(gd, definition, body, d, seq) for d in body["pending"]]
    facts["takebacks"] = [
        {"side": side, "record": seq}
        for side in definition.players
        if gd.request(seq, "takeback", side).is_file()
        and not any(gd.request(seq, "consent", s).is_file() for s in definition.players)
    ]
    return facts


def _decision(gd, definition, body: dict, d: dict, seq: int) -> dict:  # noqa: ANN001
    """One decision awaited, as facts: from whom, since which packet, when it is due."""
    from .protocol import chain

    since = body["asked"].get(d["side"], seq)
    asked = chain.read_record(gd, definition, since).body["time"]
    entry = body.get("clock", {}).get(d["side"])
    return {
        "side": d["side"], "for": "decision", "decision": d["decision"],
        "location": d.get("location"), "asked_in": since, "asked_at": asked,
        "due": entry["due"] if entry is not None else None,
    }  # fmt: skip


def _waiting_to_start(facts: dict) -> list[str]:
    """A game not started, in words: the joins, else the seeds, it waits for."""
    if facts["waiting"] and facts["waiting"][0]["for"] == "join":
        text = _("game {game}: waiting for joins from {sides}")
    else:
        text = _("game {game}: waiting for seeds from {sides}")
    sides = ", ".join(w["side"] for w in facts["waiting"])
    return [text.format(game=facts["game"], sides=sides)]


def _game_over(result: dict | None) -> str:
    if result is None:
        return _("the game is over")
    return _("the game is over: {result}").format(result=words.outcome(result))


def _awaited(d: dict, now: str) -> str:
    """One decision awaited, in words: from whom, since which packet, when it is due."""
    from .protocol import clock
    from .reports import names as n

    if d["location"]:
        line = _("awaiting {side}: {decision} at {location} (asked in packet {seq}, {time})")
    else:
        line = _("awaiting {side}: {decision} (asked in packet {seq}, {time})")
    line = line.format(
        side=n.side(d["side"]),
        decision=n.decision(d["decision"]),
        location=d["location"],
        seq=d["asked_in"],
        time=d["asked_at"],
    )
    if d["due"] is not None:
        due = _("; due {due}, {left}")
        line += due.format(due=d["due"], left=clock.time_left(d["due"], now))
    return "  " + line
