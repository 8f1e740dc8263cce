"""A referee's game (docs/referee.md): the referee holds the seed, the state and every
side's secrets until the reveal, and the players answer its packets. Its directory's
status, verification, replay and reveal (`RefereeGame`), and what starts one
(`REFEREE`): the game's creation by the referee, a player's join and seed, a demo."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import words
from ..i18n import gettext as _
from ..i18n import ngettext
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
    from ..protocol.game import Definition


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
        from ..referee import verify as checks

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
        from ..protocol import game
        from ..protocol.store import GameDir

        return game.load(GameDir(self.root)).referee.name

    def play(self, turn: Turn, shell: Shell) -> None:
        raise Refusal(N_("{path} is not a two-party game's directory"), path=turn.path)

    def bot_pass(self, robot: Robot) -> Said:
        raise Refusal(N_("{path} is not a two-party game's directory"), path=self.root)

    def reveal(self, identity: Identity, now: str, force: bool) -> str:
        from ..referee import verify as checks

        path = checks.reveal(self.root, identity, now, force)
        wrote = _("wrote {path}; anyone can now run: seki verify {dir}")
        return wrote.format(path=path, dir=self.root)

    def replay(self) -> Replayed:
        from ..protocol import game
        from ..protocol.component_files import game_components
        from ..protocol.store import GameDir
        from ..referee import verify as checks
        from ..reports.archive import last_record, replayed

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


def _referee_facts(root: Path) -> dict:
    """A referee's game's status as facts (JSON-ready, `seki status --json`): the game,
    its records and the last one, whether it is over and how it ended, what it waits for
    from whom (a join, a seed, or a decision: asked in which packet, when, due when), and
    the takebacks asked and not answered."""
    from ..protocol import chain, game
    from ..protocol.store import GameDir

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
    from ..protocol import chain

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
    from ..protocol import clock
    from ..reports import names as n

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


class RefereeMode:
    """A referee's game begun: the referee creates it, each player joins it and, once
    both have, answers the other's join with a seed sealed to the referee."""

    creator = "referee"

    def create(self, new: NewGame, now: str) -> Said:
        from ..protocol import clock, game
        from ..protocol.component_files import components_hash
        from ..reports import names

        deadlines = None
        if new.deadlines is not None:
            deadlines = clock.parse_settings(new.deadlines, "deadline options")
        definition = game.create(
            new.directory,
            new.game_id,
            new.creator,
            new.players,
            components_hash(),
            new.options,
            now,
            game.Terms(deadlines, new.addresses, new.languages),
        )
        told = [
            _("created game {game} in {path}").format(game=definition.game_id, path=new.directory)
        ]
        referee_line = _("referee fingerprint {fingerprint}")
        told.append("  " + referee_line.format(fingerprint=definition.referee.fingerprint))
        for side, public in definition.players.items():
            line = _("{side}: {name} fingerprint {fingerprint}")
            told.append(
                "  "
                + line.format(
                    side=names.side(side), name=public.name, fingerprint=public.fingerprint
                )
            )
        send = _(
            "Send {path} to both players as their join request; each answers with: "
            "seki join game.txt --key NAME"
        )
        told.append(send.format(path=new.directory / "game.txt"))
        return Said(told=told)

    def join(self, joining: Joining, now: str) -> Said:
        from ..crypto import signing
        from ..crypto.keystore import default_dir
        from ..play import mailbox
        from ..protocol import documents as docs
        from ..protocol import game, joins
        from ..protocol.store import write_atomic
        from ..reports import names

        text, identity = joining.text, joining.identity
        mail = mailbox.for_sending(joining.mail_config) if joining.send else None
        body, _signature = signing.split(text)
        if f"format: {game.GAME_FORMAT}" in body.splitlines():
            definition = game.parse(text, joining.where)
            side = joins.player_side(definition, identity)
            answer = joins.make_join(definition, identity)
            write_atomic(default_dir() / "games" / f"{definition.game_id}.txt", text)
            what, name = "join", f"join-{definition.game_id}-{side}.txt"
        else:
            game_id = docs.peek_game(text, joining.where)
            definition = _definition(joining.game_file, default_dir() / "games" / f"{game_id}.txt")
            side = joins.player_side(definition, identity)
            name, answer = _seed(definition, identity, side, text, joining.where)
            what = "seed"
        kept = _kept(default_dir() / mailbox.SENT / name, answer)
        out = joining.out or Path(f"{what}-{definition.game_id}-{side}.txt")
        write_atomic(out, answer)
        you = _("game {game}: you play {side}")
        told = [you.format(game=definition.game_id, side=names.side(side))]
        if what == "join":
            referee = _(
                "referee {name} fingerprint {fingerprint} (compare it with the referee by "
                "another channel)"
            )
            told.append(
                "  "
                + referee.format(
                    name=definition.referee.name, fingerprint=definition.referee.fingerprint
                )
            )
        if mail is not None:
            told.append(_("wrote {path}").format(path=out))
            told.append(mailbox.send(mail, definition, kept, f"{what} {definition.game_id}"))
            if what == "join":
                then = _(
                    "once both sides have joined, the referee mails you the other's join: "
                    "seki play --send answers it with your seed"
                )
                told.append(then)
        elif what == "join":
            wrote = _(
                "wrote {path}: mail it to the referee. Once both sides have joined, the referee "
                "sends you the other's join: answer it with seki join again to send your seed."
            )
            told.append(wrote.format(path=out))
        else:
            wrote = _("wrote {path}: your seed, sealed to the referee; mail it to the referee")
            told.append(wrote.format(path=out))
        return Said(told=told)

    def demo(self, demo: Demo, now: str) -> Said:
        from ..referee.demo import Bots, run_demo

        start = time.perf_counter()
        bots = Bots(demo.bot, demo.plans, demo.budget)
        result = run_demo(demo.directory, demo.seed, now, bots=bots)
        elapsed = time.perf_counter() - start
        assert result.result is not None  # a demo is played to its end (referee/demo.py)
        over = _(
            "demo game over after {records} records ({turn_files} turn files) in {seconds} s: "
            "{result}; revealed and verified"
        )
        made = over.format(
            records=result.records,
            turn_files=result.turn_files,
            seconds=f"{elapsed:.1f}",
            result=words.outcome(result.result),
        )
        archive = _("archive: {path} (a git repository); keys: {keys}")
        told = [
            archive.format(path=result.game_dir, keys=demo.directory / "keys"),
            _("check it yourself: seki verify {path}").format(path=result.game_dir),
        ]
        bug = None
        if result.refused:  # seki's own bots, refused by seki's own referee: a bug
            refused = ngettext(
                "{n} turn file was refused: {first}",
                "{n} turn files were refused: {first}",
                len(result.refused),
            )
            bug = refused.format(n=len(result.refused), first=result.refused[0])
        return Said(made=[made], told=told, bug=bug)


REFEREE = RefereeMode()


def _kept(path: Path, text: str) -> Path:
    """The copy of an answer that --send and `seki play --send` mail (play/mailbox.py,
    `unsent`), by its usual name, or by its hash where another text has that name (a join
    of another game of the same id): each file is mailed once, by its name."""
    from ..play import filing
    from ..protocol.store import write_atomic

    if path.exists() and path.read_text(encoding="utf-8") != text:
        path = path.with_name(f"{path.stem}-{filing.digest(text)}.txt")
    if not path.exists():
        write_atomic(path, text)
    return path


def _seed(
    definition: Definition, identity: Identity, side: str, join: str, where: str
) -> tuple[str, str]:
    """The seed answering the other side's join, and its file name: the one made before
    for this very join of this game, if any, so that the referee is never sent two
    different seeds (each is sealed afresh); else a new one, named as `seki play` names it
    (play/mailbox.py)."""
    from ..play import mailbox
    from ..protocol import documents as docs
    from ..protocol import joins

    for name, made in mailbox.seeds_made(definition, side).items():
        if made.other_join == docs.sha256(join):
            return name, made.text
    return mailbox.seed_name(definition, side, join), joins.make_seed(
        definition, identity, join, where
    )


def _definition(given: Path | None, remembered: Path) -> Definition:
    from ..protocol import documents as docs
    from ..protocol import game

    path = given or remembered
    if not path.is_file():
        raise Refusal(
            N_("{name}: no game definition remembered for this game; give it with --game game.txt"),
            code=Code.WRONG_GAME,
            name=path.name,
        )
    return game.parse(docs.read_saved(path), str(path))
