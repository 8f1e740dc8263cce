"""Deadlines, extensions, the no-move policy, takebacks and resignation, through the
referee's real files, and `seki verify` replaying each of them (referee/steps.py)."""

from __future__ import annotations

import hashlib
import re

import pytest

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.protocol import chain, clock, game, joins, packets, takebacks, turns
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import steps
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.rules.defaults import passive_action
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.vocab import SIDES, other

T0 = "2026-11-22T12:00:00Z"
SETTINGS = clock.Settings(hours=72, reminder_hours=24, extension_hours=48, max_extensions=1,
                          policy="pass")  # fmt: skip


def at(hours: float) -> str:
    return clock.format_time(clock.parse_time(T0, "t") + clock.timedelta(hours=hours))


class Table:
    """A referee and two bot players around one game directory."""

    def __init__(self, root, settings=SETTINGS, seed="table"):
        self.people = {n: generate(n) for n in ("referee", *SIDES)}
        self.gd = GameDir(root)
        self.definition = game.create(
            root, "timed", self.people["referee"], {s: self.people[s].public for s in SIDES},
            components_hash(), {}, T0, game.Terms(settings),
        )  # fmt: skip
        for _, text in joins.opening(self.definition, self.people):
            self.send(text, T0)
        self.bots = {s: Bot(self.people[s], self.definition, seed) for s in SIDES}

    def send(self, text: str, now: str):
        [outcome] = referee.adjudicate(
            self.gd.root, self.people["referee"], [("in.txt", text.encode())], now
        )
        return outcome

    def record(self, seq: int | None = None) -> chain.Record:
        return chain.read_record(self.gd, self.definition, seq or self.gd.last_seq())

    def state(self, seq: int | None = None) -> dict:
        g = referee.open_game(self.gd.root, self.people["referee"])
        return referee.state_at(g, seq or self.gd.last_seq())

    def turn(self, side: str, actions: list[dict], answers: int | None = None) -> str:
        body = turns.body(self.definition, side, answers or self.gd.last_seq(), actions)
        return signing.sign(body, self.people[side])

    def play(self, side: str, now: str):
        seq = self.gd.last_seq()
        text = self.bots[side].answer(self.gd.packet(seq, side).read_text(), "p")
        return self.send(text, now)

    def verify(self) -> checks.Report:
        checks.reveal(self.gd.root, self.people["referee"], at(1000), force=True)
        return checks.verify(self.gd.root)


@pytest.fixture
def table(tmp_path):
    return Table(tmp_path / "game")


def test_setup_record_starts_every_asked_sides_clock(table):
    body = table.record(1).body
    assert set(body["clock"]) == set(body["asked"]) and body["clock"]
    for entry in body["clock"].values():
        assert entry == {"due": at(72), "extensions": 0}


def test_missed_deadline_applies_the_declared_policy_and_verifies(table):
    assert referee.enforce_deadlines(table.gd.root, table.people["referee"], at(71.9)) == []
    before = table.gd.last_seq()
    outcomes = referee.enforce_deadlines(table.gd.root, table.people["referee"], at(73))
    assert outcomes and all("deadline" in o.message for o in outcomes)
    records = [table.record(s) for s in range(before + 1, table.gd.last_seq() + 1)]
    assert all(r.body["kind"] == "deadline" for r in records)
    assert records[0].body["inputs"][0] == {
        "deadline": records[0].body["inputs"][0]["deadline"], "due": at(72), "policy": "pass",
    }  # fmt: skip
    missed = [e for r in records for e in r.body["events"] if e["type"] == "deadline_missed"]
    assert {e["side"] for e in missed} <= set(SIDES) and missed
    # what was played for a side stays private to it
    assert not any("action" in e for r in records for e in r.body["events"])
    report = table.verify()
    assert report.records == table.gd.last_seq()


def test_passive_action_is_always_legal(comp):
    """Whatever is asked, the `pass` policy has a legal answer (random playouts)."""
    from sekigahara_pbem.rules import rng
    from sekigahara_pbem.rules.cycle.setup import setup

    for game_no in range(4):
        state, _ = setup(comp, hashlib.sha256(bytes([game_no])).hexdigest(), {})
        chooser = rng.new(hashlib.sha256(f"passive-{game_no}".encode()).hexdigest())
        for _ in range(400):
            decisions = pending(state)
            if not decisions:
                break
            side = decisions[0]["side"]
            action = passive_action(state, comp, side)
            assert action is not None
            apply(state, comp, side, action)  # legal: raises otherwise
            legal = options(state, comp, side)
            state, _ = apply(state, comp, side, legal[rng.below(chooser, len(legal))])


def test_extension_moves_the_deadline_once(table):
    side = sorted(table.record().body["asked"])[0]
    outcome = table.send(table.turn(side, [{"type": "extension"}]), at(10))
    assert outcome.accepted, outcome.message
    body = table.record().body
    assert body["clock"][side] == {"due": at(72 + 48), "extensions": 1}
    assert body["clock"][other(side)]["due"] == at(72)  # the other side's clock runs on
    again = table.send(table.turn(side, [{"type": "extension"}]), at(11))
    assert not again.accepted and "allows 1" in again.message
    referee.enforce_deadlines(table.gd.root, table.people["referee"], at(73))
    events = [e for s in range(1, table.gd.last_seq() + 1) for e in table.record(s).body["events"]]
    missed = {e["side"] for e in events if e["type"] == "deadline_missed"}
    assert side not in missed
    assert table.verify().records == table.gd.last_seq()


def test_extension_needs_deadlines(tmp_path):
    t = Table(tmp_path / "g", settings=None)
    side = sorted(t.record().body["asked"])[0]
    outcome = t.send(t.turn(side, [{"type": "extension"}]), T0)
    assert not outcome.accepted and "no deadlines" in outcome.message


def _play_until(table: Table, wanted, limit: int = 400) -> int | None:
    """Play bot moves until the last record satisfies `wanted(table)`; None if the game
    ends first."""
    for _ in range(limit):
        if wanted(table):
            return table.gd.last_seq()
        asked = table.record().body["pending"]
        if not asked:
            return None
        assert table.play(sorted({d["side"] for d in asked})[0], at(1)).accepted
    raise AssertionError("never reached")


def _table_where(tmp_path, wanted, tries: int = 4) -> tuple[Table, int]:
    """A table played until its last record satisfies `wanted`. Every table's keys, and
    so its game, are new: a game that ends before it gets there is replaced."""
    for n in range(tries):
        table = Table(tmp_path / f"game{n}")
        seq = _play_until(table, wanted)
        if seq is not None:
            return table, seq
    raise AssertionError(f"none of {tries} games reached the wanted record")


def _undoable_by(side):
    def check(t: Table) -> bool:
        r = t.record()
        return (
            r.seq > 2
            and "kind" not in r.body
            and "movement" in r.body["label"]
            and side in r.body["label"]
            and not r.body["openings"]
        )

    return check


def _request(table: Table, side: str) -> str:
    r = table.record()
    body = takebacks.request_body(table.definition, side, r.seq, r.hash, "misclick")
    return signing.sign(body, table.people[side])


def _consent(table: Table, request: str, answer: str) -> str:
    req = takebacks.parse_request(table.definition, request, "r")
    body = takebacks.consent_body(table.definition, other(req.side), req.hash, answer)
    return signing.sign(body, table.people[other(req.side)])


def test_accepted_takeback_restores_the_state_and_keeps_the_history(tmp_path):
    table, seq = _table_where(tmp_path, _undoable_by("ishida"))
    request = _request(table, "ishida")
    assert table.send(request, at(2)).accepted
    assert table.gd.last_seq() == seq  # a request alone changes nothing
    outcome = table.send(_consent(table, request, "accept"), at(3))
    assert outcome.accepted, outcome.message
    new = table.record()
    assert new.seq == seq + 1 and new.body["kind"] == "takeback" and new.body["undo"] == seq
    assert table.state() == table.state(seq - 1)
    assert table.gd.turn(seq, "ishida").is_file()  # the undone step stays in the history
    assert all(since == new.seq for since in new.body["asked"].values())
    assert table.verify().records == new.seq


def test_refused_takeback_changes_nothing(tmp_path):
    table, seq = _table_where(tmp_path, _undoable_by("tokugawa"))
    request = _request(table, "tokugawa")
    assert table.send(request, at(2)).accepted
    outcome = table.send(_consent(table, request, "refuse"), at(3))
    assert outcome.accepted and "refused" in outcome.message
    assert table.gd.last_seq() == seq
    late = table.send(_consent(table, request, "accept"), at(4))
    assert not late.accepted and "already been answered" in late.message


def test_takeback_refused_after_a_revealed_commitment(tmp_path):
    table, _ = _table_where(tmp_path, lambda t: t.record().body["openings"] and t.gd.last_seq() > 1)
    side = "ishida"
    outcome = table.send(_request(table, side), at(2))
    assert not outcome.accepted and re.search(r"revealed \d+ committed items?\b", outcome.message)


def test_takeback_refused_after_a_draw_the_requester_saw(tmp_path, comp):
    def drew(t: Table) -> bool:
        g = referee.open_game(t.gd.root, t.people["referee"])
        r = t.record()
        if r.seq < 2 or r.body.get("openings") or "kind" in r.body:
            return False
        before = referee.state_at(g, r.seq - 1)  # the draw is ishida's to see, in full
        turn = referee.read_turn(g, t.gd.root / r.body["inputs"][0]["file"])
        clock_before = t.record(r.seq - 1).body.get("clock", {})
        events = steps.turn_step(
            comp, before, turn, "t", g.definition.deadlines, clock_before
        ).events
        return any(e["type"] == "draw" and "ishida" in e.get("private", {}) for e in events)

    table, _ = _table_where(tmp_path, drew)
    outcome = table.send(_request(table, "ishida"), at(2))
    assert not outcome.accepted and "random draw" in outcome.message


def test_takeback_only_of_the_last_record_and_only_by_the_players(tmp_path):
    table, _ = _table_where(tmp_path, lambda t: t.gd.last_seq() > 3)
    r = table.record(table.gd.last_seq() - 1)
    body = takebacks.request_body(table.definition, "ishida", r.seq, r.hash, "")
    outcome = table.send(signing.sign(body, table.people["ishida"]), at(2))
    assert not outcome.accepted and "only the last adjudication" in outcome.message
    forged = signing.sign(body.replace("ishida", "tokugawa"), table.people["ishida"])
    assert not table.send(forged, at(2)).accepted


def test_resignation_at_any_moment_ends_the_game(table):
    asked = set(table.record().body["asked"])
    side = next((s for s in SIDES if s not in asked), "tokugawa")
    outcome = table.send(table.turn(side, [{"type": "resign"}], answers=1), at(1))
    assert outcome.accepted, outcome.message
    body = table.record().body
    assert body["pending"] == [] and body["clock"] == {}
    [over] = [e for e in body["events"] if e["type"] == "game_over"]
    assert over["winner"] == other(side) and over["how"] == "resignation"
    after = table.send(table.turn(other(side), [{"type": "resign"}]), at(2))
    assert not after.accepted
    assert table.verify().result["how"] == "resignation"


def test_verify_refuses_a_policy_applied_before_the_deadline(table, monkeypatch):
    monkeypatch.setattr(clock, "overdue", lambda c, now: sorted(c)[:1])
    referee.enforce_deadlines(table.gd.root, table.people["referee"], at(1))
    monkeypatch.undo()
    with pytest.raises(checks.Discrepancy, match="before the deadline had passed"):
        table.verify()


def test_turn_file_of_another_component_set_names_both_versions(table):
    side = sorted(table.record().body["asked"])[0]
    text = table.turn(side, [{"type": "resign"}])
    body, _ = signing.split(text)
    other_set = body.replace(components_hash(), "ab" * 32)
    outcome = table.send(signing.sign(other_set, table.people[side]), at(1))
    assert not outcome.accepted
    assert "component set abababababababab" in outcome.message and "install" in outcome.message


def test_packets_name_the_tool_and_component_set(table):
    text = table.gd.packet(1, "ishida").read_text()
    assert f"components: {components_hash()}" in text and "tool: sekigahara-pbem" in text
    packets.open_packet(table.definition, text, table.people["ishida"], "p")


def test_verify_compares_a_deadline_record_whole(table, monkeypatch):
    """A referee that signs more into a deadline record than the replay gives (a second
    input after the deadline it applied) fails verify: the record is compared whole with
    the one the writer makes of the replay (issue 29), not field by field."""
    import dataclasses

    from sekigahara_pbem.referee.records import deadline

    write = deadline.writer.write

    def padded(game, record, state, draft):
        extra = {"deadline": "tokugawa", "due": at(1), "policy": "pass"}
        return write(game, record, state, dataclasses.replace(draft, inputs=[*draft.inputs, extra]))

    monkeypatch.setattr(deadline.writer, "write", padded)
    assert referee.enforce_deadlines(table.gd.root, table.people["referee"], at(73))
    monkeypatch.undo()
    with pytest.raises(checks.Discrepancy, match="inputs does not match the replay"):
        table.verify()
