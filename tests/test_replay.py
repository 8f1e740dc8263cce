"""`seki replay` (issue 41): a game's records stepped through on one self-contained page,
in a real Chromium. Each record's map is the map `seki report --seq N` draws of it from
the public files (the replay draws it from the verified replay's states); once revealed,
each side's map holds its blocks and its hand as the replayed state has them; the keys,
the buttons and the slider step through the records, the page fetches nothing, and an
archive that does not verify, or has no records, is refused in one line. A two-party game
replays the same way once both sides have revealed, and its public records before."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.rules.vocab import SIDES

DOCS = Path(__file__).resolve().parent.parent / "docs"


def seki(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def _board(page) -> str:
    """The map as the browser holds it (one serialisation for both pages compared)."""
    return page.eval_on_selector("svg.board", "svg => svg.outerHTML")


def _sees(page, comp, state: dict, side: str) -> None:
    """The page shows `side`'s view of `state`: its blocks on the map by identity, and
    its hand."""
    shown = page.eval_on_selector_all(
        "#board g.block", "blocks => blocks.map(b => b.dataset.block)"
    )
    mine = [b for b, at in state["blocks"].items()
            if at in comp.locations and comp.blocks[b].side == side]  # fmt: skip
    assert sorted(shown) == sorted(mine), side
    hand = ", ".join(sorted(state["cards"][side]["hand"]))
    assert hand in page.inner_text("#situation"), side


def _offline_page(browser):  # noqa: ANN001, ANN202
    """A page, and what it fetched from anywhere but the file, or failed on (to be none)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside: list[str] = []
    page.on("request", lambda r: r.url.startswith("file://") or outside.append(r.url))
    page.on("pageerror", lambda e: outside.append(str(e)))
    return page, outside


def test_a_revealed_game_is_replayed_record_by_record(browser, comp, short_game, tmp_path):
    root, records = short_game
    out = tmp_path / "replay.html"
    done = seki("replay", str(root / "game"), "--html", str(out))
    assert done.returncode == 0, done.stderr
    page, outside = _offline_page(browser)
    reports = browser.new_page()
    try:
        page.goto(out.as_uri())
        assert page.get_attribute("body", "data-seq") == "1"
        for seq in (1, 2, records // 2, records):
            report = tmp_path / f"report-{seq}.html"
            assert seki("report", str(root / "game"), "--seq", str(seq), "--html", str(report))
            reports.goto(report.as_uri())
            page.locator("#slider").fill(str(seq - 1))
            assert page.get_attribute("body", "data-seq") == str(seq)
            assert _board(page) == _board(reports), f"record {seq}"
            assert f"Record {seq} of {records}" in page.inner_text("#where")
        page.keyboard.press("Home")
        assert page.get_attribute("body", "data-seq") == "1"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-seq") == "3"
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("body", "data-seq") == "2"
        page.keyboard.press("End")
        assert page.get_attribute("body", "data-seq") == str(records)
        page.click("#next")  # past the last record: it stays
        assert page.get_attribute("body", "data-seq") == str(records)
        page.click("#first")
        page.click("#next")
        assert page.get_attribute("body", "data-seq") == "2"
        assert page.inner_text("#what").strip()  # the record's events in words
        assert "Victory points:" in page.inner_text("#situation")
        assert not page.query_selector_all("#board g.block")  # a spectator's: counts
        states = checks.verify(root / "game").states
        for side in SIDES:  # revealed: each side's blocks and hand as it saw them then
            page.click(f'#eyes button[data-eyes="{side}"]')
            for seq in (2, records):
                page.locator("#slider").fill(str(seq - 1))
                _sees(page, comp, states[seq], side)
    finally:
        page.close()
        reports.close()
    assert not outside, outside


@pytest.mark.parametrize("broken", ["a changed record", "no records"])
def test_an_archive_that_does_not_verify_is_refused(short_game, tmp_path, broken):
    """A record changed after the fact is not replayed (exit 3, the discrepancy named);
    a game without records is refused (exit 1): one line each, no page written."""
    target = tmp_path / "game"
    shutil.copytree(short_game[0] / "game", target)
    if broken == "a changed record":
        record = target / "records" / "000003.txt"
        record.write_text(record.read_text().replace("time:", "time: ", 1))
    else:
        for path in (target / "records").iterdir():
            path.unlink()
    out = tmp_path / "replay.html"
    done = seki("replay", str(target), "--html", str(out))
    assert done.returncode == (3 if broken == "a changed record" else 1), done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not out.exists()


@pytest.fixture(scope="module")
def two_party(tmp_path_factory):
    """A whole two-party game between the heuristic bots, revealed by both sides and
    verified (the two sides' directories hold the same records)."""
    from sekigahara_pbem.twoparty import demo as two_party_demo

    root = tmp_path_factory.mktemp("two-party")
    assert two_party_demo.run(root, "heuristic", "replay").result is not None
    return root


@pytest.fixture(scope="module")
def played(two_party):
    """The two-party game's records as the audit replays them with both secrets."""
    from sekigahara_pbem.twoparty.side import verify

    return verify(two_party / "ishida").replayed()


def test_a_two_party_game_is_replayed_once_both_sides_revealed(
    browser, comp, two_party, played, tmp_path
):
    """A two-party game replays as a refereed one (issue 41): each record as the game
    stands (the audit's replay with both secrets), every side's blocks on its own map as
    the audit's state holds them, and the last record's result; nothing fetched."""
    out = tmp_path / "replay.html"
    done = seki("replay", str(two_party / "ishida"), "--html", str(out))
    assert done.returncode == 0, done.stderr
    assert len(played) > 30 and played[-1].state["result"] is not None
    page, outside = _offline_page(browser)
    try:
        page.goto(out.as_uri())
        assert page.get_attribute("body", "data-seq") == str(played[0].n)
        page.keyboard.press("End")
        assert page.get_attribute("body", "data-seq") == str(played[-1].n)
        assert "Victory points:" in page.inner_text("#situation")
        for side in SIDES:
            page.click(f'#eyes button[data-eyes="{side}"]')
            for k in (0, len(played) // 2, len(played) - 1):
                page.locator("#slider").fill(str(k))
                assert page.get_attribute("body", "data-seq") == str(played[k].n)
                _sees(page, comp, played[k].state, side)
    finally:
        page.close()
    assert not outside, outside


def _running(two_party: Path, target: Path, last: int | None) -> Path:
    """Ishida's directory as it stood before the reveals: its records up to `last` (all
    of them: None), no reveal on file."""
    shutil.copytree(two_party / "ishida", target)
    shutil.rmtree(target / "reveals")
    for path in (target / "records").iterdir():
        if last is not None and int(path.name[:4]) > last:
            path.unlink()
    return target


def _public_views(target: Path, played, comp) -> list:  # noqa: ANN001
    """The public replay's records of `target` (the last frame of each), each checked to
    be the map a spectator of the revealed game sees of it: the same view, but an item its
    owner has yet to open, which stays under its handle."""
    from sekigahara_pbem.games import open_game
    from sekigahara_pbem.rules.views import view

    public = [r for r in open_game(target).replay().records if r.part == r.parts]
    revealed = {p.n: view(p.state, comp, None) for p in played}
    compared = [r for r in public if r.seq in revealed]
    assert len(compared) >= len(public) - 1  # record 2 (randomness alone) the audit skips
    for r in compared:
        seen, spectator = r.view, revealed[r.seq]
        for key in set(seen) | set(spectator):
            if key in ("eliminated", "combat"):  # may hold a handle not opened yet
                continue
            assert seen.get(key) == spectator.get(key), (r.seq, key)
        assert len(seen["eliminated"]) == len(spectator["eliminated"]), r.seq
    return public


def test_a_two_party_game_still_running_replays_its_public_records(
    browser, comp, two_party, played, tmp_path
):
    """Before both reveals, a two-party game replays its public records (issue 41):
    each record's public form, read without any secret and checked by its hash,
    signature and chain, is the map a spectator of the revealed game sees of it
    (`_public_views`), and each entry's action is told in words; no side's map."""
    target = _running(two_party, tmp_path / "ishida", 60)
    out = tmp_path / "replay.html"
    done = seki("replay", str(target), "--html", str(out))
    assert done.returncode == 0, done.stderr
    public = _public_views(target, played, comp)
    assert public[-1].seq == 60
    page, outside = _offline_page(browser)
    try:
        page.goto(out.as_uri())
        page.keyboard.press("End")
        assert page.get_attribute("body", "data-seq") == "60"
        assert "Victory points:" in page.inner_text("#situation")
        page.locator("#slider").fill("10")
        told = page.inner_text("#what")
        assert "Ishida:" in told or "Tokugawa:" in told, told
        assert not page.query_selector_all("#board g.block")  # a spectator's: counts
        assert not page.query_selector_all('#eyes button[data-eyes="ishida"]:visible')
    finally:
        page.close()
    assert not outside, outside


def test_a_two_party_game_over_but_not_revealed_replays_its_public_records(
    comp, two_party, played, tmp_path
):
    """A game over whose sides have not revealed (or one never will: a forfeit of the
    reveal) replays its public records to the end, its result on the last."""
    public = _public_views(_running(two_party, tmp_path / "ishida", None), played, comp)
    assert public[-1].seq == played[-1].n
    assert public[-1].view["result"] == played[-1].state["result"]


@pytest.mark.parametrize("broken", ["a changed record", "a record missing"])
def test_a_two_party_public_record_that_does_not_check_is_refused(two_party, tmp_path, broken):
    """The public replay trusts no record it cannot check: one whose public form was
    changed (its signature no longer holds), or a gap in the chain, is refused in one
    line and no page is written."""
    target = _running(two_party, tmp_path / "ishida", 40)
    if broken == "a changed record":
        record = next((target / "records").glob("0030-*.txt"))
        # the time every record is written at (a record without a state change has no
        # "change:", so changing that one left some games' record 30 as it was)
        record.write_text(record.read_text().replace("written: '", "written: '1", 1))
    else:
        next((target / "records").glob("0030-*.txt")).unlink()
    out = tmp_path / "replay.html"
    done = seki("replay", str(target), "--html", str(out))
    assert done.returncode not in (0, 70), done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not out.exists()


@pytest.fixture(scope="module")
def acted(tmp_path_factory):
    """A short referee game between heuristic bots, revealed by agreement: their turn
    files hold several actions (a movement phase is one file), which the replay shows
    one at a time."""
    from conftest import _play_short

    root = tmp_path_factory.mktemp("acted")
    _play_short(root, "acted", "heuristic")
    return root / "game"


def test_a_record_of_several_actions_is_stepped_an_action_at_a_time(browser, comp, acted, tmp_path):
    """Shift with the arrows (and the small buttons) steps through a revealed record's
    actions: each its own map, the state after it as verify replayed it, its events
    marked among the record's; the record's whole comes last, and the arrows alone still
    step by record."""
    report = checks.verify(acted)
    seq, stages = next(iter(sorted(report.stages.items())))
    assert len(stages) > 1
    out = tmp_path / "replay.html"
    done = seki("replay", str(acted), "--html", str(out))
    assert done.returncode == 0, done.stderr
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(out.as_uri())
        page.locator("#slider").fill(str(seq - 1))
        assert page.get_attribute("body", "data-seq") == str(seq)
        assert page.get_attribute("body", "data-part") == str(len(stages))  # the whole
        whole = _board(page)
        page.evaluate("document.activeElement.blur()")  # the keys are the page's, not the slider's
        page.keyboard.press("Shift+ArrowLeft")
        assert page.get_attribute("body", "data-seq") == str(seq)
        assert page.get_attribute("body", "data-part") == str(len(stages) - 1)
        assert f"action {len(stages) - 1} of {len(stages)}" in page.inner_text("#where")
        assert page.locator("#what li.now").count() == max(1, len(stages[-2][1]))
        for side in SIDES:  # each side's map and hand after that action
            page.click(f'#eyes button[data-eyes="{side}"]')
            _sees(page, comp, stages[-2][0], side)
        if os.environ.get("SEKI_WEB_SCREENSHOTS") == "1":  # the picture in docs/reports.md
            page.screenshot(path=str(DOCS / "replay-desktop.png"))
        page.click('#eyes button[data-eyes="public"]')
        page.click("#after")
        assert page.get_attribute("body", "data-part") == str(len(stages))
        assert _board(page) == whole
        page.keyboard.press("Shift+ArrowLeft")
        page.keyboard.press("ArrowRight")  # by record: from an action, its record's whole
        assert page.get_attribute("body", "data-seq") == str(seq)
        assert page.get_attribute("body", "data-part") == str(len(stages))
        page.keyboard.press("ArrowRight")  # then the next record's
        assert page.get_attribute("body", "data-seq") == str(seq + 1)
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("body", "data-seq") == str(seq)
        assert page.get_attribute("body", "data-part") == str(len(stages))
    finally:
        page.close()
