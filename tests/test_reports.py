"""Reports (issue 6): every report of a whole demo game keeps the other side's secrets (and
the public ones both sides'), fits 80 columns, describes every event and option in
English with YAML that pastes back into a turn file; `seki view --html` and `seki report`
write them; the HTML page loads in a real headless browser without errors."""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto.keystore import read_identity
from sekigahara_pbem.protocol import chain, game, packets
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.reports import (
    choices,
    events,
    packet_hint,
    render_html,
    render_public_html,
    render_public_text,
    render_text,
    svgmap,
)
from sekigahara_pbem.rules.invariants import hidden_from
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import SIDES

NOW = "2026-11-22T12:00:00Z"
TOKEN = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")
RULES = Path(__file__).parent.parent / "sekigahara_pbem" / "rules"
CHROMIUM = Path("/usr/bin/chromium")
BROWSER_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def tokens(text: str) -> set[str]:
    """Every id-shaped word: 'mori-1' is not found inside 'mori-1a'."""
    return set(TOKEN.findall(text))


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.fixture(scope="module")
def steps(demo, comp):
    """Per record: the revealed full state (only to know what is secret), both opened
    packets, the public view and the record's public events."""
    root, result = demo
    records = result.records
    ids = {n: read_identity(root / "keys" / f"{n}.identity") for n in ("referee", *SIDES)}
    gd = GameDir(root / "game")
    definition = game.load(gd)
    secrets = game.open_secrets(gd, definition, ids["referee"])
    out = []
    for seq in range(1, records + 1):
        state = chain.open_state(definition, secrets, seq, gd.sealed(seq).read_text())
        opened = {
            s: packets.open_packet(definition, gd.packet(seq, s).read_text(), ids[s], "p")
            for s in SIDES
        }
        record = chain.read_record(gd, definition, seq).body
        out.append((seq, state, opened, view(state, comp, None), record["events"]))
    return out


@pytest.fixture(scope="module")
def rendered(steps, comp):
    """Every report of the game, once: per record, both players' text (first options and
    all options) and HTML, and the public text and HTML."""
    out = []
    for seq, _, opened, public, evts in steps:
        reports = {
            s: (
                render_text("demo", opened[s], comp),
                render_text("demo", opened[s], comp, all_options=True),
                render_html("demo", opened[s], comp),
            )
            for s in SIDES
        }
        reports[None] = (
            render_public_text("demo", seq, public, evts, comp),
            render_public_html("demo", seq, public, evts, comp),
        )
        out.append(reports)
    return out


def test_no_report_shows_the_other_sides_hidden_blocks_or_cards(steps, rendered, comp):
    """The other side's blocks not face up and its hand (hidden_from, from the revealed
    state) appear in no report, text or HTML; the public reports hide both sides'. Ids the
    rules showed in this record's public events (deployed blocks, a card shown to refute
    a challenge) are public by then."""
    checked = 0
    for (seq, state, opened, _, evts), reports in zip(steps, rendered, strict=True):
        shown_by_rules = tokens(repr(evts))
        for side in (*SIDES, None):
            hidden = hidden_from(state, comp, side) - shown_by_rules
            assert hidden, (seq, side)  # there is always something to keep secret
            for report in reports[side]:
                leaked = hidden & tokens(report)
                assert not leaked, (seq, side or "public", sorted(leaked)[:5])
            checked += 1
        for side in SIDES:  # and the reader's own secrets are there (the check can see ids)
            text, _, html = reports[side]
            assert set(opened[side].view["own"]["hand"]) <= tokens(text) & tokens(html)
    assert checked == 3 * len(steps)


def test_every_line_of_every_text_report_fits_80_columns(rendered):
    lines = 0
    for reports in rendered:
        texts = [*reports["ishida"][:2], *reports["tokugawa"][:2], reports[None][0]]
        for text in texts:
            for line in text.splitlines():
                assert columns(line) <= 80, line
                lines += 1
    assert lines > 10_000


def test_every_event_the_engine_emits_has_a_sentence():
    """Every "type" the rules write is an event with its own sentence or an action with
    its own option text (grep -r '"type": "' sekigahara_pbem/rules)."""
    kinds = set()
    for path in RULES.rglob("*.py"):
        kinds |= set(re.findall(r'"type": "(\w+)"', path.read_text(encoding="utf-8")))
    assert len(kinds) > 30
    missing = kinds - set(events.DESCRIBERS) - set(choices.OPTION_DESCRIBERS)
    assert not missing


def test_the_demos_events_read_as_sentences_with_their_rules(steps, comp):
    seen = set()
    for _, _, opened, _, evts in steps:
        for event in evts + opened["ishida"].events + opened["tokugawa"].events:
            sentence = events.describe(event, comp)
            assert sentence != events.generic(event), event  # not the fallback
            assert "{" not in sentence and "'" not in sentence.replace("'s ", ""), sentence
            if event.get("rule"):
                assert sentence.endswith(f"({event['rule']})")
            seen.add(event["type"])
    assert {"move", "battle", "deploy", "battle_result", "losses", "control", "bids"} <= seen


def test_8_3_a_deployment_shows_its_impact_arithmetic(comp):
    event = {
        "type": "deploy", "rule": "8.2.3", "location": "gifu", "side": "ishida",
        "card": "ukita-swords-1", "blocks": ["ukita-gun"],
        "impacts": [{"mon": 1, "same_daimyo": 2, "special": 4}],
        "impact": {"ishida": 12, "tokugawa": 9},
    }  # fmt: skip
    text = events.describe(event, comp)
    assert "1 mon + 2 same daimyo + 4 special attack = 7" in text
    assert "totals Ishida 12, Tokugawa 9" in text and text.endswith("(8.2.3)")


def test_unknown_or_malformed_events_get_a_generic_line(comp):
    assert events.describe({"type": "comet", "rule": "99", "seen": ["kyoto"]}, comp) == (
        "comet: seen [kyoto] (99)"
    )
    assert events.describe({"type": "move"}, comp) == "move"  # missing fields: no crash
    assert events.describe({"type": "deploy", "blocks": 3}, comp).startswith("deploy: ")


def test_odd_events_and_options_never_break_a_report(steps, comp):
    """Events of unknown types or unexpected shapes (a newer engine, a hand-edited record)
    are still listed, and the report, text and HTML, is still made."""
    from dataclasses import replace

    odd = [
        {"type": "comet", "location": ["kyoto"], "side": {"x": 1}},
        {"type": "move", "from": "edo", "groups": [["no-such-block"], {"count": 1}]},
        {"type": "retreat", "location": "gifu", "to": ["sawayama"]},
        {"type": ["deploy"]},
        {"no type": True},
        "not even a mapping",
    ]
    packet = next(p for _, _, opened, _, _ in steps for p in opened.values() if p.options)
    odd_packet = replace(packet, events=odd, options=[*packet.options, {"type": "dance"}, "x"])
    text = render_text("demo", odd_packet, comp, all_options=True)
    assert "comet: location [kyoto]; side x 1" in text and "dance" in text
    assert "<svg" in render_html("demo", odd_packet, comp)
    assert "comet" in render_public_html("demo", 1, {}, odd, comp)


def test_every_option_pastes_back_as_itself(steps):
    """The YAML under each option, put under 'actions:', loads as that very action."""
    checked = 0
    for _, _, opened, _, _ in steps[::5]:
        for packet in opened.values():
            for option in packet.options[:400]:
                lines = choices.pasteable(option)
                loaded = yaml.safe_load("actions:\n" + "\n".join(lines))["actions"]
                assert loaded == [option]
                checked += 1
    assert checked > 500


def test_the_turn_template_in_the_report_is_a_turn_file(steps, comp):
    seq, _, opened, _, _ = next(s for s in steps if s[2]["ishida"].options)
    text = render_text("demo", opened["ishida"], comp)
    header = text.split("Turn template")[1].split("\nformat:")[1]
    body = yaml.safe_load("format:" + header)
    expected = {"format": "seki-turn/1", "game": "demo", "side": "ishida", "answers": seq}
    assert expected.items() <= body.items() and body["actions"] is None
    option = opened["ishida"].options[0]
    assert "\n".join(choices.pasteable(option, "         ")) in text


def test_the_public_mail_body_ends_with_the_packet_hint(steps, comp):
    seq, _, _, public, evts = steps[-1]
    text = render_public_text("demo", seq, public, evts, comp)
    assert " ".join(text.split()).endswith(" ".join(packet_hint().split()))
    assert "packet-7.txt" in render_public_text("demo", seq, public, evts, comp,
                                                footer=packet_hint("packet-7.txt"))  # fmt: skip
    assert "seki view" not in render_public_text("demo", seq, public, evts, comp, footer="")


def test_seki_report_prints_a_records_public_report(demo, steps, tmp_path, comp):
    """The last record from public/state.yaml, an earlier one from the game directory's
    git history (both checked against the record's hash); a tampered view is refused."""
    root, result = demo
    records = result.records
    runner = CliRunner()
    game_dir = tmp_path / "game"
    shutil.copytree(root / "game", game_dir)
    last = runner.invoke(app, ["report", str(game_dir), "--html", str(tmp_path / "r.html")])
    assert last.exit_code == 0, last.output
    assert f"public report after record {records}" in last.output
    assert "GAME OVER" in last.output and "<svg" in (tmp_path / "r.html").read_text()
    seq, _, _, public, evts = steps[40]
    earlier = runner.invoke(app, ["report", str(game_dir), "--seq", str(seq)])
    assert earlier.exit_code == 0, earlier.output
    assert earlier.output == render_public_text("demo", seq, public, evts, comp, footer="")
    state_file = game_dir / "public" / "state.yaml"
    state_file.write_text(state_file.read_text() + "extra: 1\n")
    tampered = runner.invoke(app, ["report", str(game_dir)])
    assert tampered.exit_code == 1 and "does not match" in tampered.output
    missing = runner.invoke(app, ["report", str(game_dir), "--seq", str(records + 1)])
    assert missing.exit_code == 1 and "does not exist" in missing.output


def test_seki_view_writes_the_html_report(demo, steps, tmp_path, monkeypatch, comp):
    root, _ = demo
    monkeypatch.setenv("SEKI_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "games").mkdir(parents=True)
    shutil.copy(root / "game" / "game.txt", tmp_path / "home" / "games" / "demo.txt")
    packet = GameDir(root / "game").packet(10, "tokugawa")
    out = tmp_path / "report.html"
    done = CliRunner().invoke(
        app, ["view", str(packet), "--key", str(root / "keys" / "tokugawa.identity"),
              "--html", str(out)],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "packet 10 for Tokugawa" in done.output and f"wrote {out}" in done.output
    assert out.read_text() == render_html("demo", steps[9][2]["tokugawa"], comp)


def test_the_html_report_refers_to_nothing_outside_itself(rendered):
    html = rendered[60]["ishida"][2] + rendered[60][None][1]
    urls = set(re.findall(r"\b(?:https?|ftp)://[^\s\"'<>)]+", html))
    assert urls == {"http://www.w3.org/2000/svg"}  # the SVG namespace name, never fetched
    assert "<script" not in html and "@import" not in html


def _browser_or_skip():
    required = os.environ.get("SEKI_REQUIRE_BROWSER") == "1"
    if not CHROMIUM.exists():
        if required:
            pytest.fail(f"SEKI_REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        pytest.skip(f"no browser: {CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("SEKI_REQUIRE_BROWSER=1 but the playwright package is missing")
        pytest.skip("the playwright package is missing (pip install -e '.[test]')")
    return sync_playwright


def test_the_html_report_loads_in_a_real_browser(steps, rendered, comp, tmp_path):
    """Chromium opens the player's and the public page offline: no console or page
    errors, no request beyond the file itself, one SVG element per location; the player's
    page is saved as a screenshot."""
    sync_playwright = _browser_or_skip()
    drawn = {"move", "retreat", *svgmap.MARKED}  # events the map shows

    def busy(i: int) -> tuple:
        packet = steps[i][2]["ishida"]
        fight = ((packet.view.get("combat") or {}).get("fight")) or {}
        return (sum(e["type"] in drawn for e in packet.events), bool(fight), i)

    busiest = max(range(len(steps)), key=busy)
    pages = {
        "player": rendered[busiest]["ishida"][2],
        "public": rendered[busiest][None][1],
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            for name, html in pages.items():
                path = tmp_path / f"{name}.html"
                path.write_text(html, encoding="utf-8")
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                problems, requests = [], []
                page.on("console", lambda m, out=problems: m.type == "error" and out.append(m.text))
                page.on("pageerror", lambda e, out=problems: out.append(str(e)))
                page.on("request", lambda r, out=requests: out.append(r.url))
                page.goto(path.as_uri(), wait_until="load")
                assert page.locator("svg.board g.loc").count() == len(comp.locations)
                assert page.locator("svg.board g.loc text").count() >= len(comp.locations)
                assert page.title().startswith("Sekigahara, game demo")
                shot = tmp_path / f"{name}.png"
                page.screenshot(path=str(shot), full_page=True)
                assert shot.stat().st_size > 20_000
                assert not problems, problems
                assert requests == [path.as_uri()], requests
                page.close()
        finally:
            browser.close()


# In the page: each location name's box, each stack piece's, the map's, how wide a name is
# drawn (in px), and whether the map fits its frame without scrolling sideways.
MEASURE_MAP = """() => {
  const svg = document.querySelector('svg.board');
  const box = r => [r.left, r.top, r.right, r.bottom];
  const frame = svg.parentElement;
  return {
    board: box(svg.getBoundingClientRect()),
    scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
    fits: frame.scrollWidth <= frame.clientWidth,
    names: [...svg.querySelectorAll('g.loc > text.label')].map(
      t => [t.textContent, box(t.getBoundingClientRect())]),
    stacks: [...svg.querySelectorAll('g.block rect, g.badge rect, g.disk circle')].map(
      e => [e.closest('g.loc').id, box(e.getBoundingClientRect())]),
  };
}"""


def _meet(a: list, b: list) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.fixture(scope="module")
def crowded(steps, rendered, comp) -> dict:
    """The demo's most crowded maps (most occupied locations; most arrows and marks),
    each reader's and the public one, by name: found once for both widths (a map is
    built for every record and reader to find them)."""

    def crowd(i: int, side: str | None) -> tuple:
        packet = steps[i][2][side or "ishida"]
        view, evts = (packet.view, packet.events) if side else (steps[i][3], steps[i][4])
        m = svgmap.build(view, evts, comp, side)
        return sum(bool(loc["stack"]) for loc in m["locations"]), len(m["arrows"] + m["marks"])

    pages = {}
    for side in (*SIDES, None):
        counts = [crowd(i, side) for i in range(len(steps))]
        for k in (0, 1):  # the most stacks; the most arrows and marks
            i = max(range(len(steps)), key=lambda i, k=k: (counts[i][k], counts[i][1 - k]))
            html = rendered[i][side][2] if side else rendered[i][None][1]
            pages[f"{side or 'public'}-{steps[i][0]}"] = html
    return pages


@pytest.mark.parametrize("width", [1400, 390], ids=["desktop", "phone"])
def test_the_maps_names_are_inside_it_and_clear_of_each_other_and_of_the_stacks(
    crowded, comp, tmp_path, width
):
    """Issue 27: the map is the printed board, whose Kinai (Osaka to Kuwana, Kiyosu to
    Okazaki) is dense. On the demo's most crowded maps (most occupied locations; most
    arrows and marks), each reader's and the public one, in Chromium at a desktop's and a
    phone's width: every location's name is drawn once, inside the map, overlapping no
    other name and no block, count or disk. On the desktop the map fits without scrolling
    sideways (even beside a decision's choices); on the phone it scrolls instead of
    shrinking its names below svgmap.LABEL_MIN_PX."""
    sync_playwright = _browser_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": 1000})
            for name, html in crowded.items():
                path = tmp_path / f"{name}.html"
                path.write_text(html, encoding="utf-8")
                page.goto(path.as_uri(), wait_until="load")
                got = page.evaluate(MEASURE_MAP)
                names, board = got["names"], got["board"]
                assert sorted(t for t, _ in names) == sorted(
                    loc.name for loc in comp.locations.values()
                ), name
                for text, box in names:
                    inside = board[0] <= box[0] and board[1] <= box[1]
                    assert inside and box[2] <= board[2] and box[3] <= board[3], (name, text)
                clashes = [
                    (a, b) for i, (a, one) in enumerate(names) for b, two in names[i + 1 :]
                    if _meet(one, two)
                ]  # fmt: skip
                assert not clashes, (name, clashes)
                covered = [
                    (t, loc) for t, one in names for loc, two in got["stacks"] if _meet(one, two)
                ]
                assert not covered, (name, covered)
                assert got["stacks"], name  # a crowded map has stacks to clear
                if width >= 1400:
                    assert got["fits"], name
                else:
                    assert not got["fits"], name  # the phone scrolls the map sideways
                    drawn = got["scale"] * svgmap.LABEL
                    assert drawn >= svgmap.LABEL_MIN_PX - 0.01, (name, drawn)
        finally:
            browser.close()


def test_a_map_laid_out_after_others_is_the_one_laid_out_alone(steps, comp):
    """svgmap keeps what it worked out for earlier maps (`_COSTS`, `_CHOICES`, `_NEAR`, the
    spots): every reader's map of a stretch of records, built after all the others, is
    the map built with nothing kept."""
    kept = (svgmap._COSTS, svgmap._CHOICES, svgmap._NEAR)

    def forget() -> None:
        for table in kept:
            table.clear()
        svgmap._name_spots.cache_clear()
        svgmap._stack_spots.cache_clear()

    def maps(i: int) -> list[dict]:
        _, _, opened, public, evts = steps[i]
        built = [svgmap.build(opened[s].view, opened[s].events, comp, s) for s in SIDES]
        return [*built, svgmap.build(public, evts, comp, None)]

    chosen = range(len(steps) // 2, len(steps) // 2 + 12)
    alone = {}
    for i in chosen:
        forget()
        alone[i] = maps(i)
    forget()
    for i in reversed(chosen):
        assert maps(i) == alone[i], steps[i][0]
    assert all(kept) and svgmap._name_spots.cache_info().hits


def test_the_player_picks_a_stack_and_the_map_shows_where_it_can_go(steps, comp, tmp_path):
    """In the Movement Phase the page lists the player's movable stacks beside the map;
    picking one (CSS only: no script, no request) rings it and every place it can reach,
    as computed on the player's shadow state."""
    from sekigahara_pbem.reports import _reach

    sync_playwright = _browser_or_skip()
    packet = next(
        opened["ishida"]
        for _, _, opened, _, _ in steps
        if opened["ishida"].view["step"] == "movement" and _reach(opened["ishida"], comp, None)
    )
    reach = _reach(packet, comp, None)
    origin, places = next(iter(reach.items()))
    path = tmp_path / "move.html"
    path.write_text(render_html("demo", packet, comp), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            requests: list = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(path.as_uri(), wait_until="load")

            def shown(loc: str, ring: str) -> bool:
                style = "e => getComputedStyle(e).display"
                return page.eval_on_selector(f"#loc-{loc} .reach.{ring}", style) != "none"

            assert not any(shown(loc, "walk") or shown(loc, "march") for loc in places)
            assert page.locator("aside.choices label").count() == len(reach)
            page.click(f'label[for="stack-{origin}"]')
            assert shown(origin, "origin")
            for loc, march in places.items():
                assert shown(loc, "march" if march else "walk"), loc
            away = [loc for loc in comp.locations if loc not in places and loc != origin]
            assert not any(shown(loc, "walk") or shown(loc, "march") for loc in away)
            assert requests == [path.as_uri()], requests
        finally:
            browser.close()


def test_templates_compile_once_and_a_cache_that_cannot_be_written_is_no_cache(tmp_path):
    """Compiled templates are kept between runs (issue 18); where the cache's directory
    cannot be used, the template is compiled and rendered all the same."""
    from jinja2 import DictLoader, Environment

    from sekigahara_pbem.reports.env import compiled_cache

    templates = DictLoader({"t.j2": "{{ a }} and {{ b }}"})
    kept = Environment(loader=templates, bytecode_cache=compiled_cache(str(tmp_path)))
    assert kept.get_template("t.j2").render(a=1, b=2) == "1 and 2"
    assert [p.name.startswith("__seki-") for p in tmp_path.iterdir()] == [True]
    again = Environment(loader=templates, bytecode_cache=compiled_cache(str(tmp_path)))
    assert again.get_template("t.j2").render(a=3, b=4) == "3 and 4"
    for p in tmp_path.iterdir():
        p.write_bytes(b"not a compiled template")  # a damaged cache file
    again = Environment(loader=templates, bytecode_cache=compiled_cache(str(tmp_path)))
    assert again.get_template("t.j2").render(a=5, b=6) == "5 and 6"
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    broken = Environment(loader=templates, bytecode_cache=compiled_cache(str(blocked)))
    assert broken.get_template("t.j2").render(a=7, b=8) == "7 and 8"


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour '#rrggbb' (D65), the space where a distance of a few
    units is what the eye can just tell apart."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92 for c in rgb)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_no_clan_colour_passes_for_a_sides_count_badge():
    """Issue 41: an Ii block in dark gold (#b9770e, 31 from Ishida's fill) read as a count
    of Ishida blocks, and the Mōri blocks in slate (#2e4053, 19 from Tokugawa's black)
    as counts of Tokugawa's. Every clan colour is at least 35 (CIE76) from both fills:
    a side sees its own blocks in clan colours beside the enemy's counts."""
    from sekigahara_pbem.reports.svgmap import CLAN_PALETTE, SIDE_FILL

    for clan in CLAN_PALETTE:
        for fill in SIDE_FILL.values():
            distance = sum((p - q) ** 2 for p, q in zip(_lab(clan), _lab(fill), strict=True))
            assert distance**0.5 >= 35, (clan, fill)


def test_the_text_map_holds_every_castle_and_the_roads_from_each_place(comp):
    """Issue 41 (7): the text map listed only the places with pieces, without roads. It
    now holds every castle, an empty one too (4.3: it counts for its colour), and with
    each place the roads that leave it, highways named (7.3.3)."""
    from sekigahara_pbem.rules.cycle.setup import setup

    state, _ = setup(comp, "ab" * 16)
    public = view(state, comp, None)
    text = render_public_text("g", 1, public, [], comp, footer="")
    rows: dict[str, str] = {}  # each place's row, its wrapped lines joined
    last = None
    for line in text.split("The map", 1)[1].splitlines()[2:]:
        if line.startswith("    ") and last:
            rows[last] += " " + line.strip()
        elif line.startswith("  "):
            last = re.split(r" \[|: ", line.strip(), maxsplit=1)[0]
            rows[last] = line.strip()
    empty = [loc for loc, spec in comp.locations.items()
             if spec.castle and loc not in public["stacks"]]  # fmt: skip
    assert empty
    for loc in {*empty, *public["stacks"]}:
        name = comp.locations[loc].name
        roads = sorted(
            f"{comp.locations[b].name} (highway)" if comp.road(loc, b) else comp.locations[b].name
            for b in comp.adjacent[loc]
        )
        pieces, shown = rows[name].split("; roads to ")
        assert sorted(shown.split(", ")) == roads, (loc, rows[name])
        if loc in empty:
            assert pieces.endswith(": empty"), rows[name]
