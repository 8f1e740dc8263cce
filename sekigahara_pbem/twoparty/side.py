"""One side's directory of a two-party game, and what the side does with it.

    game.txt                  the signed game (seki-2p-game/1)
    components/               the game's component set: board, blocks and cards .yaml
    records/NNNN-<side>.txt   every record of the exchange, both sides', in order
    private.age               this side's knowledge, sealed to its own key (age)
    reveals/<side>.txt        the secrets, once the game is over

Nothing else is kept: the side's secret comes from its key. Every change is written
whole before the private file that refers to it, so a run stopped halfway leaves the
directory as it was or one record ahead, which the next run notices.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from ..crypto import agefile
from ..crypto.keys import Identity
from ..i18n import gettext as _
from ..i18n import ngettext
from ..protocol import clock
from ..protocol import documents as docs
from ..protocol.chain import Link, Walk
from ..protocol.component_files import carry, game_components, set_named
from ..protocol.store import write_atomic
from ..refusal import N_, Code, Refusal, side_words
from ..rules.components import Components
from ..rules.state_types import State
from ..rules.vocab import SIDES, other
from ..words import outcome
from . import audit, deadlines, files, kinds
from . import knowledge as kn
from .exchange import (
    AGREE,
    DEADLINES,
    PLAYING,
    RECEIVING,
    RECORDS,
    REVEAL,
    TAKEBACK,
    TAKEBACKS,
    THE_END,
    Answering,
    Cheat,
    Party,
    Record,
    adopt_dealt,
    dealt,
    start_half,
)

PRIVATE = "private.age"
NOT_A_PLAYER = N_("this key is not one of the game's players")
SNAPSHOTS = "snapshots"  # the side's knowledge after each of the last records
KEPT = 4


@dataclass
class Side:
    root: Path
    game: files.Game
    identity: Identity
    comp: Components

    @property
    def side(self) -> str:
        side = self.game.side_of(self.identity.public)
        if side is None:
            raise Refusal(NOT_A_PLAYER, code=Code.WRONG_SIDE)
        return side

    # -- files ---------------------------------------------------------------------------

    def result(self) -> dict | None:
        return self.load().result

    def records(self) -> list[Path]:
        return sorted((self.root / "records").glob("[0-9][0-9][0-9][0-9]-*.txt"))

    def record_path(self, n: int, side: str) -> Path:
        return self.root / "records" / f"{n:04d}-{side}.txt"

    def last_hash(self) -> str:
        found = self.records()
        return docs.sha256(docs.read_capped(found[-1])) if found else self.game.hash

    def load(self) -> Party:
        """The side's knowledge, brought up to the last record on file: a run stopped
        between writing a record and sealing the knowledge after it is caught up here, by
        reading the other side's record again or making its own again from its choices."""
        text = (self.root / PRIVATE).read_text(encoding="utf-8")
        data = json.loads(agefile.open_armored(text, self.identity, PRIVATE))
        party = Party.from_data(self.comp, data)
        found = self.records()
        taken = data.get("records", len(found))
        if taken < len(found):
            for path in found[taken:]:
                party = self._catch_up(party, path)
            self.save(party, len(found) - 1)
        return party

    def _catch_up(self, party: Party, path: Path) -> Party:
        """`party` after the record at `path`, which it does not reflect yet."""
        # every record starts from the form both held (`agreed`; its public form may have
        # opened its own items since)
        received = files.read_record(
            self.game, docs.read_capped(path), path.name, lambda side, seq: party.agreed
        )
        record = received.record
        if received.n < 2:
            raise Refusal(
                N_("a join left half written: join the game again"),
                code=Code.STALE,
                rule=PLAYING,
                at=path.name,
            )
        kind = kinds.of(record)
        if kind.name == AGREE:  # both sides go back to before the record taken back
            party = self.snapshot(received.n - 3)
        if record.side != self.side:
            party.read(record)
        else:
            kind.remake(party, record)
        return party

    def save(self, party: Party, n: int | None = None) -> None:
        """Seal the side's knowledge; after record `n`, also as that record's snapshot (the
        last few are kept, for a takeback)."""
        data = json.dumps(
            {**party.to_data(), "records": len(self.records())},
            sort_keys=True,
            separators=(",", ":"),
        )
        sealed = agefile.seal(data.encode(), self.identity.public)
        if n is not None:
            folder = self.root / SNAPSHOTS
            folder.mkdir(exist_ok=True)
            write_atomic(folder / f"{n:04d}.age", sealed)
            for old in sorted(folder.glob("*.age"))[:-KEPT]:
                old.unlink()
        write_atomic(self.root / PRIVATE, sealed)

    def snapshot(self, n: int) -> Party:
        """The side's knowledge as it was after record `n`."""
        path = self.root / SNAPSHOTS / f"{n:04d}.age"
        if not path.is_file():
            raise Refusal(
                N_("no knowledge kept from record {n}: too late to take it back"),
                code=Code.STALE,
                rule=TAKEBACKS,
                n=n,
            )
        data = agefile.open_armored(path.read_text(encoding="utf-8"), self.identity, path.name)
        return Party.from_data(self.comp, json.loads(data))

    def _write_record(
        self,
        party: Party,
        record: Record,
        base: Mapping[str, object],
        extra: dict,
        now: str,
        join: bool = False,
    ) -> str:
        """`base`: the public form the record's changes start from ({} for a takeback,
        whose entry holds the whole form)."""
        n = SIDES.index(self.side) if join else len(self.records())
        prev = self.game.hash if join else self.last_hash()
        now = now if join else self._dated(now)
        text = files.record_text(self.game, record, n, prev, base, self.identity, extra, now)
        write_atomic(self.record_path(n, self.side), text)
        self.save(party, None if join else n)
        return text

    def _dated(self, now: str) -> str:
        """The time a record or reveal this side writes now carries: `now` by its clock,
        or the time of the record it follows if that is later. Times never go back
        (deadlines.py), and the other side's clock may run ahead of this one's by up to
        TOLERANCE: dated by this clock alone, an honest answer written within those
        minutes would be refused as back-dated."""
        after = deadlines.latest(self.records())
        if after is None or clock.parse_time(now, "now") >= after:
            return now
        return clock.format_time(after)

    # -- what a side does ----------------------------------------------------------------

    def join(self, now: str) -> str:
        """This side's join: commitments to its secret and to its chart-placed blocks'
        handles, where those stand, and its first randomness."""
        (self.root / "records").mkdir(parents=True, exist_ok=True)
        value = files.secret(self.game, self.identity)
        book = kn.Book(self.side, value)
        public = start_half(self.comp, book, self.game.options)
        party = Party(self.side, self.comp, book, public)
        extra = {
            "definition": self.game.hash,
            "secret_commitment": files.secret_commitment(self.game, self.side, value),
            "dealt": dealt(public, self.side),
        }
        return self._write_record(party, party.join(), public, extra, now, join=True)

    def receive(self, text: str, where: str, now: str) -> None:
        """Check and take in the other side's record (its time against `now`, this side's
        clock: twoparty/deadlines.py); a Refusal leaves nothing changed."""
        party = self.load()
        received = files.read_record(self.game, text, where, lambda side, seq: party.agreed)
        if received.record.side != other(self.side):
            raise Refusal(
                N_("the record is not the other side's"),
                code=Code.WRONG_SIDE,
                rule=RECEIVING,
                at=where,
            )
        join = received.n < 2  # the joins are records 0 and 1, in the order of the sides
        if join and (received.record.seq != 0 or received.record.entries):
            raise Refusal(N_("a join holds no moves"), code=Code.STALE, rule=RECORDS, at=where)
        if not join and len(self.records()) < 2:
            raise _join_first(other(self.side), received.n, where, self.root)
        found = self.records()
        if join:  # the joins are records 0 and 1, in the order of the sides
            place, prev, after = SIDES.index(received.record.side), self.game.hash, None
        else:
            place, prev, after = len(found), self.last_hash(), deadlines.latest(found)
        walk = Walk(place, prev, after, Cheat, RECORDS)
        walk.step(_link(received), docs.sha256(text), where)
        deadlines.check_time(received.written, None, now, where)
        if join:
            self._adopt_join(party, received, where)
        deadlines.check_forfeit(
            self.game, received, found, deadlines.reveal_times(self.root), where
        )
        kind = kinds.of(received.record).name
        if kind == TAKEBACK:
            self._asked(party, received.record.side, where)
        if kind == AGREE:
            party = self._restored(self.side, where)
        party.read(received.record)
        write_atomic(self.record_path(received.n, received.record.side), text)
        self.save(party, 1 if join else received.n)  # snapshot 1: both joins taken

    def _asked(self, party: Party, asker: str, where: str) -> None:
        """A takeback the other side asks must be of its last record, a move of a game
        going on, as `request_takeback` asks it: one asked after this side's record would
        leave this side's held action uncomputed, or the game stalled."""
        found = self.records()
        last = found[-1] if len(found) > 2 else None
        if (
            last is None
            or not last.name.endswith(f"-{asker}.txt")
            or party.public["result"] is not None
            or _kind(last) is not kinds.PLAY
        ):
            raise _not_last(asker, where)

    def _adopt_join(self, party: Party, received: files.Received, where: str) -> None:
        handles = received.body.get("dealt")
        if not isinstance(handles, dict) or received.body.get("definition") != self.game.hash:
            raise docs.DocumentError(where, N_("a join names the game and the handles it deals"))
        party.public = party.agreed = adopt_dealt(
            party.public, self.comp, other(self.side), handles
        )

    def turn(
        self,
        choose: Answering,
        now: str,
        confirm: Callable[[list[dict], State], bool] | None = None,
    ) -> str:
        """This side's next record, as far as its copy knows; its text, to send. A
        chooser that gives None, or a `confirm` that gives False, took an answer back: the
        record is built again from the knowledge saved (exchange.Answering), so the copy
        it is written from is the one the answers kept give, whatever was answered and
        taken back. `confirm` may raise to stop: nothing is written then."""
        if len(self.records()) < 2:
            raise Refusal(N_("both sides must join first"), code=Code.NOT_ASKED, rule=PLAYING)
        if self.whose_turn() != self.side:
            raise Refusal(
                N_("waiting for the other side's record"), code=Code.NOT_ASKED, rule=PLAYING
            )
        while True:
            party = self.load()
            base = party.agreed
            record = party.write(choose)
            if record is None:
                continue  # an answer taken back: nothing written, the record built again
            if confirm is not None:
                chosen = [kn.replace(e.action, party.book.reals()) for e in record.entries
                          if e.action]  # fmt: skip
                if not confirm(chosen, party.copy()):
                    continue  # the same
            return self._write_record(party, record, base, {}, now)

    def resign(self, now: str) -> str:
        """Concede the game, in this side's record (on its turn)."""
        if self.whose_turn() != self.side:
            raise Refusal(
                N_("resign in your own record: wait for the other side's"),
                code=Code.NOT_ASKED,
                rule=PLAYING,
            )
        party = self.load()
        base = party.agreed
        return self._write_record(party, party.resign(), base, {}, now)

    def request_takeback(self, now: str) -> str:
        """Ask to take back this side's last record, before the other side answers it."""
        found = self.records()
        if len(found) < 3 or not found[-1].name.endswith(f"-{self.side}.txt"):
            raise Refusal(
                N_("only your last record can be taken back, before it is answered"),
                code=Code.NOT_ASKED,
                rule=TAKEBACKS,
            )
        if self.result() is not None or _kind(found[-1]) is not kinds.PLAY:
            raise Refusal(
                N_("there is no move of yours to take back now"),
                code=Code.NOT_ASKED,
                rule=TAKEBACKS,
            )
        party = self.load()
        return self._write_record(party, party.takeback(TAKEBACK), {}, {}, now)

    def agree_takeback(self, now: str) -> str:
        """Agree to the other side's takeback: both go back to before its last move."""
        party = self._restored(other(self.side), "takeback")
        return self._write_record(party, party.takeback(AGREE), {}, {}, now)

    def _restored(self, asker: str, where: str) -> Party:
        """This side's knowledge from before the record `asker` asked to take back (the
        records stay: the history shows the takeback)."""
        found = self.records()
        mine = f"-{asker}.txt"
        if len(found) < 4 or _kind(found[-1]).name != TAKEBACK or not found[-1].name.endswith(mine):
            raise Refusal(
                N_("no takeback of {side}'s is asked"),
                code=Code.NOT_ASKED,
                rule=TAKEBACKS,
                at=where,
                side=asker,
            )
        if not found[-2].name.endswith(mine):
            raise _not_last(asker, where)
        return self.snapshot(len(found) - 3)

    def late(self, now: str) -> int | None:
        """Hours past the deadline the other side is (None if it is not late, or the game
        has no deadline): with its record while the game goes on; with its reveal once
        the game has ended and this side has revealed its own."""
        found = self.records()
        hours = self.game.deadline_hours
        if hours is None or len(found) < 3:
            return None
        result = self.result()
        if result is None and self.whose_turn() != other(self.side):
            return None
        if result is not None and not self._reveal_owed():
            return None
        written = deadlines.written(docs.read_capped(found[-1]), found[-1].name)
        over = (clock.parse_time(now, "now") - written).total_seconds() / 3600 - hours
        return int(over) if over >= 0 else None

    def _reveal_owed(self) -> bool:
        """The game ended by the rules, this side revealed, and the other has not."""
        result = self.result()
        return (
            result is not None
            and result["how"] != "forfeit"
            and (self.root / "reveals" / f"{self.side}.txt").is_file()
            and not (self.root / "reveals" / f"{other(self.side)}.txt").is_file()
        )

    def claim_forfeit(self, now: str) -> str:
        """The win by forfeit: the other side sent nothing within the deadline after this
        side's last record, or, once the game is over, did not reveal its secret within
        the deadline after the last record (this side must have revealed its own)."""
        result = self.result()
        if result is not None and result["how"] == "forfeit":
            raise Refusal(
                N_("the game has already ended by forfeit"), code=Code.NOT_ASKED, rule=DEADLINES
            )
        if result is not None and not (self.root / "reveals" / f"{self.side}.txt").is_file():
            raise Refusal(
                N_("reveal your own secret first (seki reveal)"),
                code=Code.NOT_ASKED,
                rule=DEADLINES,
            )
        if result is not None and not self._reveal_owed():
            raise Refusal(
                N_("the other side's reveal is here: the game is over"),
                code=Code.NOT_ASKED,
                rule=DEADLINES,
            )
        if self.late(now) is None:
            raise Refusal(
                N_("the other side is not past the deadline"), code=Code.NOT_ASKED, rule=DEADLINES
            )
        party = self.load()
        base = party.agreed
        return self._write_record(party, party.forfeit(len(self.records()) - 1), base, {}, now)

    def take_reveal(self, text: str, where: str, now: str) -> Path:
        """The other side's reveal, checked against its join's commitment and naming a
        record on file here as the last it held, dated neither before that record nor
        ahead of `now` (this side's clock), kept."""
        found = self.records()
        joins = [p for p in found[:2] if p.name.endswith(f"-{other(self.side)}.txt")]
        if not joins:
            raise Refusal(
                N_("the other side has not joined"), code=Code.STALE, rule=THE_END, at=where
            )
        body = files.record_body(docs.read_capped(joins[0]), joins[0].name)
        commitment = body.get("secret_commitment", "")
        reveal = files.read_reveal(self.game, text, where, commitment)
        _check_last(reveal, found, where)
        deadlines.check_time(
            reveal.written, deadlines.latest(found[: reveal.last[0] + 1]), now, where
        )
        side = reveal.side
        path = self.root / "reveals" / f"{side}.txt"
        path.parent.mkdir(exist_ok=True)
        write_atomic(path, text)
        return path

    def whose_turn(self) -> str | None:
        """The side that writes the next record (None once the game is over)."""
        found = self.records()
        if len(found) < 2 or self.result() is not None:
            return None
        return other(found[-1].stem.split("-", 1)[1]) if len(found) > 2 else SIDES[0]

    def reveal(self, now: str) -> str:
        """This side's secret, naming the last record it holds: no archive of the game
        verifies without that record (`verify`)."""
        party = self.load()
        last = (len(self.records()) - 1, self.last_hash())
        now = self._dated(now)
        text = files.reveal_text(self.game, self.side, party.book.secret, self.identity, now, last)
        (self.root / "reveals").mkdir(exist_ok=True)
        write_atomic(self.root / "reveals" / f"{self.side}.txt", text)
        return text


def _join_first(side: str, n: int, where: str, root: Path) -> Refusal:
    """A record of the game before the other side's join was taken in: nobody's fault but
    the order the files were taken in, so it says which file comes first."""
    return Refusal(
        N_(
            "record {n} comes after {side}'s join, which is not taken in yet: take in "
            "{first} first (seki play {dir} --receive {first})"
        ),
        code=Code.NOT_STARTED,
        rule=RECORDS,
        at=where,
        n=n,
        side=side_words(side),
        first=f"{SIDES.index(side):04d}-{side}.txt",
        dir=root,
    )


def _kind(path: Path) -> kinds.Kind:
    """The kind of the record at `path` (its file read as any record's, its signature
    not checked: `seki status` tells of any folder)."""
    return kinds.of_type(_only_action(files.record_body(docs.read_capped(path), path.name)))


def _result(body: dict) -> dict | None:
    """The result a record's public forms give, if they end the game: a change that sets
    it (a resignation, the points counted after week 7, 2.2; an instant victory, 2.1), or
    a whole form with one. Read as the file says, without a key (`status`): a game over
    on points waits for the reveals, not for another record."""
    found = None
    for entry in body.get("entries") or []:
        changes = entry.get("change") if isinstance(entry, dict) else None
        for change in changes if isinstance(changes, list) else []:
            if not isinstance(change, list) or not change or not isinstance(change[-1], dict):
                continue
            *where, value = change
            value = value.get("=")
            if not where and isinstance(value, dict):
                value, where = value.get("result"), ["result"]
            if where == ["result"]:
                found = value if isinstance(value, dict) else None
    return found


def _only_action(body: dict) -> dict | None:
    """The action of a record of one entry (a takeback, forfeit or resignation)."""
    entries = body.get("entries")
    entry = entries[0] if isinstance(entries, list) and len(entries) == 1 else None
    action = entry.get("action") if isinstance(entry, dict) else None
    return action if isinstance(action, dict) else None


def _check_last(reveal: files.Reveal, found: list[Path], where: str) -> None:
    """A reveal names the last record its author held: it must be the record on file
    at that place (the game as this side holds it, or as the archive holds it), and no
    record may follow it but one side's claim that the other forfeited by not revealing
    (written after the reveal, or crossing it in the mail). A side reveals once its game
    is over, so it holds the record that ended it: a reveal naming an earlier one lies."""
    n, digest = reveal.last
    if n >= len(found):
        raise Refusal(
            N_("the reveal names record {n} as its author's last, and it is not on file"),
            code=Code.STALE,
            rule=THE_END,
            at=where,
            n=n,
        )
    if docs.sha256(docs.read_capped(found[n])) != digest:
        raise Refusal(
            N_("the reveal names another record {n} than the one on file"),
            code=Code.STALE,
            rule=THE_END,
            at=where,
            n=n,
        )
    for i, path in enumerate(found[n + 1 :]):
        text = docs.read_capped(path)
        if i > 0 or not any(_forfeited_reveal(text, s) for s in SIDES):
            raise Refusal(
                N_("it follows the last record the reveals name, and is not a forfeit claim"),
                code=Code.STALE,
                rule=THE_END,
                at=f"records/{path.name}",
            )


def create(
    root: Path, game_text: str, identity: Identity, now: str, components: Path | None = None
) -> Side:
    """A side's new directory for the game, with its copy of the game's component set
    (the one in `components`, default the packaged set, which must be the set the game
    names) and its join written: the creator's, or the other player's answering the game
    it was sent."""
    game = files.read_game(game_text, "game.txt")
    if game.side_of(identity.public) is None:
        raise Refusal(NOT_A_PLAYER, code=Code.WRONG_SIDE)
    if root.exists() and any(root.iterdir()):
        raise Refusal(N_("{path} exists and is not empty"), code=Code.STALE, path=root)
    carried = set_named(game.components, game.game_id, components)
    root.mkdir(parents=True, exist_ok=True)
    write_atomic(root / "game.txt", game_text)
    carry(root, carried)
    side = Side(root, game, identity, carried.components)
    side.join(now)
    return side


def status(root: Path) -> dict:
    """What anyone can tell of a side's directory without its key, as facts (JSON-ready,
    `seki status --json`): the game, its players, its records, whether it is over and
    whose secrets are revealed, and what it waits for from whom: a join, a record (since
    when, due when) or a reveal."""
    game = files.read_game(docs.read_capped(root / "game.txt"), "game.txt")
    found = sorted((root / "records").glob("[0-9][0-9][0-9][0-9]-*.txt"))
    facts: dict = {
        "mode": "two-party", "game": game.game_id,
        "players": {s: k.name for s, k in game.players.items()}, "records": len(found),
        "over": False, "result": None, "revealed": [], "waiting": [], "takebacks": [],
    }  # fmt: skip
    authors = [p.stem.split("-", 1)[1] for p in found]
    if len(found) < 2:
        facts["waiting"] = [{"side": s, "for": "join"} for s in SIDES if s not in authors]
        return facts
    last = found[-1]
    reveals = sorted(p.stem for p in (root / "reveals").glob("*.txt"))
    body = files.record_body(docs.read_capped(last), last.name)
    kind, result = kinds.of_type(_only_action(body)), _result(body)
    if kind.ends or reveals or result is not None:
        unrevealed = [{"side": s, "for": "reveal"} for s in SIDES if s not in reveals]
        over = {"over": True, "result": result, "revealed": reveals, "waiting": unrevealed}
        return facts | over
    written = clock.parse_time(body.get("written"), f"{last.name}: written")
    due = None
    if game.deadline_hours is not None:
        due = clock.format_time(written + timedelta(hours=game.deadline_hours))
    waiting = SIDES[0] if len(found) == 2 else other(authors[-1])
    record = {"side": waiting, "for": "record", "since": clock.format_time(written), "due": due}
    if kind.name == TAKEBACK:  # the asker's last move, the record before it
        facts["takebacks"] = [{"side": authors[-1], "record": len(found) - 2}]
    return facts | {"waiting": [record]}


def summary(root: Path, now: str) -> list[str]:
    """The side's directory's `status`, in words (`seki status`), the time left measured
    from `now`."""
    facts = status(root)
    players = ", ".join(f"{s} {name}" for s, name in facts["players"].items())
    head = ngettext(
        "two-party game {game} ({players}): {n} record",
        "two-party game {game} ({players}): {n} records",
        facts["records"],
    )
    lines = [head.format(game=facts["game"], players=players, n=facts["records"])]
    if facts["records"] < 2:
        return [*lines, _("waiting for both joins")]
    if facts["over"]:
        if facts["result"] is not None:
            lines.append(_("the game is over: {result}").format(result=outcome(facts["result"])))
        if not facts["revealed"]:
            return [*lines, _("over; secrets revealed: none yet")]
        over = _("over; secrets revealed: {sides}").format(sides=", ".join(facts["revealed"]))
        return [*lines, over]
    [record] = facts["waiting"]
    line = _("waiting for {side}'s record since {time}")
    lines.append(line.format(side=record["side"], time=record["since"]))
    for asked in facts["takebacks"]:
        line = _(
            "{side} asks to take back its last move (record {n}): {other} agrees "
            "(--agree-takeback) or plays on"
        )
        lines.append(line.format(side=asked["side"], n=asked["record"], other=record["side"]))
    if record["due"] is not None:
        left = clock.time_left(record["due"], now)
        lines.append(_("deadline {time} ({left})").format(time=record["due"], left=left))
    return lines


def open_side(root: Path, identity: Identity) -> Side:
    """A side's directory, with the component set it carries (component_files)."""
    game = files.read_game(docs.read_capped(root / "game.txt"), "game.txt")
    return Side(root, game, identity, game_components(root, game.components))


class Archive(NamedTuple):
    """A side's directory read for checking by anyone: the game, the component set it
    carries, its records' paths and texts, and the two joins read."""

    game: files.Game
    comp: Components
    paths: list[Path]
    texts: dict[Path, str]
    joins: list[files.Received]


def archive(root: Path) -> Archive:
    """The game, its component set (an altered copy is a cheat, as a referee's is), the
    records (two joins at least) and the joins, each signature checked."""
    game = files.read_game(docs.read_capped(root / "game.txt"), "game.txt")
    try:
        comp = game_components(root, game.components)
    except Refusal as exc:  # the archive's own copy of the set: altered, as a referee's is
        raise Cheat("{reason}", rule=THE_END, reason=exc) from None
    paths = sorted((root / "records").glob("[0-9][0-9][0-9][0-9]-*.txt"))
    texts = {p: docs.read_capped(p) for p in paths}
    if len(paths) < 2:
        raise Refusal(N_("the game has fewer than two joins"), code=Code.NOT_STARTED, rule=THE_END)
    joins = [
        files.read_record(game, texts[p], f"records/{p.name}", lambda s, q: {}) for p in paths[:2]
    ]
    return Archive(game, comp, paths, texts, joins)


class NotRevealed(Refusal):
    """`verify` of a game whose sides have not both revealed their secrets (nor has one
    forfeited by not revealing): the audit needs them. A state to tell, not a fault of
    the archive."""

    code = Code.NOT_ASKED


def verify(root: Path) -> audit.Audit:
    """The whole exchange checked with the revealed secrets and the component set the
    directory carries: the chain, the signatures, each join's commitments and dealt
    handles, and the audit (twoparty/audit.py), which it returns (how many entries it
    retraced, and the sides' replayed knowledge). With one reveal missing, the game must
    have ended by that side's forfeit for not revealing it, and the audit is the revealed
    side's alone."""
    game, comp, paths, texts, joins = archive(root)
    commitments = {j.record.side: j.body.get("secret_commitment") for j in joins}
    reveals = {}
    for s in SIDES:
        where = f"reveals/{s}.txt"
        if (root / where).is_file():
            text = docs.read_capped(root / where)
            reveals[s] = files.read_reveal(game, text, where, commitments.get(s, ""))
    secrets = {s: r.secret for s, r in reveals.items()}
    missing = [s for s in SIDES if s not in secrets]
    if missing and (len(missing) > 1 or not _forfeited_reveal(texts[paths[-1]], other(missing[0]))):
        raise NotRevealed(
            N_(
                "not here yet: at the end each side reveals (seki reveal) and takes the "
                "other's reveal in (seki play DIR -r FILE)"
            ),
            rule=THE_END,
            at=f"reveals/{missing[0]}.txt",
        )
    _check_end(reveals, paths)
    for j in joins:
        if j.prev != game.hash or j.record.side not in secrets:
            continue
        book = kn.Book(j.record.side, secrets[j.record.side])
        if j.body.get("dealt") != dealt(start_half(comp, book, game.options), j.record.side):
            raise Refusal(
                N_("the join of {side} does not deal what its secret gives"),
                code=Code.STALE,
                rule=THE_END,
                side=j.record.side,
            )
    if any(j.prev != game.hash for j in joins):
        raise Refusal(N_("a join does not name the game"), code=Code.STALE, rule=RECORDS)
    handles = {j.record.side: j.body.get("dealt") for j in joins}
    unrevealed = handles.get(missing[0]) if missing else None
    if missing and not isinstance(unrevealed, dict):
        raise Refusal(
            N_("the join of {side} deals no handles"),
            code=Code.STALE,
            rule=RECORDS,
            side=missing[0],
        )
    replay = audit.Audit(comp, secrets, unrevealed, game.options)
    replay.joins([j.record for j in joins])
    signed = {s: r.written for s, r in reveals.items()}
    times = chain(game, paths, texts, joins, signed, replay.base, replay.record)
    for s, r in reveals.items():  # a reveal's time counts: it never goes back either
        deadlines.check_time(r.written, times[r.last[0]], None, f"reveals/{s}.txt")
    return replay


def chain(
    game: files.Game,
    paths: list[Path],
    texts: dict[Path, str],
    joins: list[files.Received],
    signed: dict[str, datetime],
    base: Callable[[str], State],
    take: Callable[[Record], None],
) -> list[datetime]:
    """The records after the joins, in order, each signed by its side, read from the
    public form its reader held (`base(author)`), and following the one before (its
    number, the hash of the one before, a time not before it, a forfeit claimed only past
    the deadline: twoparty/deadlines.py), handed to `take`; the time of each record (the
    joins' the later of the two), which none after it may precede."""
    latest = max(j.written for j in joins)
    walk = Walk(2, docs.sha256(texts[paths[1]]), latest, Cheat, RECORDS)
    times = [latest, latest]
    for i, path in enumerate(paths[2:], start=2):
        where = f"records/{path.name}"
        received = files.read_record(game, texts[path], where, lambda side, seq: base(side))
        walk.step(_link(received), docs.sha256(texts[path]), where)
        deadlines.check_forfeit(game, received, paths[:i], signed, where)
        times.append(received.written)
        take(received.record)
    return times


def _link(received: files.Received) -> Link:
    """Where a record says it stands in the chain (protocol/chain.py)."""
    return Link(received.n, received.prev, received.written)


def _check_end(reveals: dict[str, files.Reveal], paths: list[Path]) -> None:
    """The archive ends where the reveals say: each names the last record its author
    held, which must be on file, and only the claim that the other side forfeited by not
    revealing may follow it (`_check_last`). A chain cut short lacks a record a reveal
    names; records added after the end have no reveal naming them."""
    for side, reveal in reveals.items():
        _check_last(reveal, paths, f"reveals/{side}.txt")


def _forfeited_reveal(text: str, claimant: str) -> bool:
    """Whether a record is `claimant`'s claim that the other side forfeited by not
    revealing (the replay checks the claim itself)."""
    body = files.record_body(text, "record")
    action = _only_action(body) if body.get("side") == claimant else None
    return action is not None and action.get("missing") == REVEAL


def _not_last(asker: str, where: str) -> Refusal:
    """A takeback asked of a record that is not the asker's last one."""
    return Refusal(
        N_("the takeback asked is not of {side}'s last record"),
        code=Code.NOT_ASKED,
        rule=TAKEBACKS,
        at=where,
        side=asker,
    )
