"""Shared fixtures: the default component set, one whole demo game for the session, and
the loopback mail servers (SMTP and dovecot IMAP) for the tests that mail."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from sekigahara_pbem.protocol.component_files import load_components

_FILE_TIMES: Counter = Counter()  # test file -> seconds of its tests (SEKI_TEST_TIMES)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With SEKI_TEST_TIMES=FILE, each test file's time (its tests' setup, call and
    teardown) is summed in the run's main process, where pytest-xdist's workers report,
    for CI's split of the files between the other interpreters (.ci/shares.py)."""
    if os.environ.get("SEKI_TEST_TIMES") and not os.environ.get("PYTEST_XDIST_WORKER"):
        _FILE_TIMES[report.nodeid.split("::")[0]] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    import json

    path = os.environ.get("SEKI_TEST_TIMES")
    if path and not os.environ.get("PYTEST_XDIST_WORKER"):
        with open(path, "w", encoding="utf-8") as out:
            json.dump(dict(sorted(_FILE_TIMES.items())), out, indent=0)


def fix_seeds(patch: pytest.MonkeyPatch, tag: str) -> None:
    """The same games every run: the referee's seeds (from the operating system in play)
    and the players' (derived from their random test keys) fixed by `tag`."""
    import hashlib

    from sekigahara_pbem.protocol import game, joins

    counter = iter(range(1000))

    def referee_seed() -> bytes:
        return hashlib.sha256(f"{tag}-{next(counter)}".encode()).digest()

    def player_seed(definition, identity) -> bytes:
        side = definition.side_of(identity.public)
        return hashlib.sha256(f"{tag}-{definition.game_id}-{side}".encode()).digest()

    patch.setattr(game, "new_seed", referee_seed)
    patch.setattr(joins, "player_seed", player_seed)


@pytest.fixture(autouse=True)
def _english_again():
    """A command run in-process (CliRunner) leaves its language active for the process:
    each test starts from English, whatever the test before it asked for."""
    from sekigahara_pbem import i18n

    i18n.activate(i18n.DEFAULT)
    yield


@pytest.fixture
def fresh_game(tmp_path):
    """A game made by a referee for two players, not joined yet: (root, the referee's
    identity, the players' identities by side, the definition)."""
    from sekigahara_pbem.crypto.keys import generate
    from sekigahara_pbem.protocol import game
    from sekigahara_pbem.protocol.component_files import components_hash

    people = {n: generate(n) for n in ("ref", "alice", "bob")}
    players = {"ishida": people["alice"], "tokugawa": people["bob"]}
    root = tmp_path / "g"
    publics = {side: identity.public for side, identity in players.items()}
    definition = game.create(
        root, "g", people["ref"], publics, components_hash(), {}, "2026-11-22T12:00:00Z"
    )
    return root, people["ref"], players, definition


@pytest.fixture(scope="session")
def comp():
    return load_components()


def shared(tmp_path_factory: pytest.TempPathFactory, name: str, build):  # noqa: ANN001
    """What `build(folder)` makes in a new folder, once for the whole run: with the test
    workers of pytest-xdist, the first to ask builds it in the run's common temporary
    directory while the others wait on a file lock, then each reads the folder and the
    JSON `build` returned. A whole game takes a minute to play: every worker playing its
    own was most of a parallel run's extra time. Tests that change files work on a copy."""
    import json
    import os
    import shutil

    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the directory all workers' temporary directories share
    folder = base / f"shared-{name}"
    made = base / f"shared-{name}.json"
    with FileLock(str(made) + ".lock"):
        if not made.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that failed before
            folder.mkdir()
            made.write_text(json.dumps(build(folder)))
    return folder, json.loads(made.read_text())


def _play_demo(root):  # noqa: ANN001, ANN202
    from sekigahara_pbem.referee.demo import run_demo

    with pytest.MonkeyPatch.context() as patch:
        fix_seeds(patch, "test-seed")
        result = run_demo(root, "test-demo", "2026-11-22T12:00:00Z")
    return {**vars(result), "game_dir": str(result.game_dir)}


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """One whole demo game, the same every run: the parties' seeds are fixed here (in play
    they come from the operating system), and the bots' choices are seeded. Played once
    for all test workers (`shared`); tests that change files work on a copy."""
    from pathlib import Path

    from sekigahara_pbem.referee.demo import DemoResult

    root, fields = shared(tmp_path_factory, "demo", _play_demo)
    result = DemoResult(**{**fields, "game_dir": Path(fields["game_dir"])})
    assert not result.refused
    assert result.records > 100  # a game long enough to exercise combat and the weeks
    return root, result


def _play_short(root, seed: str = "short", bot: str = "random"):  # noqa: ANN001, ANN202
    """A dozen records of `bot`s' game, revealed by agreement (heuristic bots' turn
    files hold several actions: a movement phase is one file)."""
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.referee import verify as checks
    from sekigahara_pbem.referee.demo import Bots, run_demo

    now = "2026-11-22T12:00:00Z"
    with pytest.MonkeyPatch.context() as patch:
        fix_seeds(patch, f"{seed}-seed")
        result = run_demo(root, seed, now, max_steps=12, bots=Bots(bot))
    checks.reveal(root / "game", read_identity(root / "keys" / "referee.identity"), now, True)
    return {"records": result.records, "refused": result.refused}


@pytest.fixture(scope="session")
def short_game(tmp_path_factory):
    """A short referee game (a dozen records) revealed by agreement, as `seki demo` plays
    it through the real files: every kind of file an archive holds, for tests where the
    game's length does not matter. Played once for all test workers (`shared`); tests
    that change files work on a copy. (The directory of keys/ and game/, its records.)"""
    root, fields = shared(tmp_path_factory, "short", _play_short)
    assert not fields["refused"] and fields["records"] > 10
    return root, fields["records"]


@pytest.fixture(scope="module")
def servers():
    """SMTP (aiosmtpd, STARTTLS + AUTH) and IMAP (dovecot, TLS) on 127.0.0.1, with their
    own CA; skipped (or, with SEKI_REQUIRE_SERVERS=1, failed) without dovecot."""
    import shutil
    import tempfile
    from pathlib import Path

    from mailplay import Servers
    from mailservers import require_dovecot

    require_dovecot()
    base = Path(tempfile.mkdtemp(prefix="seki-mail-"))
    base.chmod(0o755)  # dovecot reads the maildirs as an unprivileged user
    try:
        with Servers(base / "servers") as running:
            yield running
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    """Chromium through Playwright for the tests of the turn's page (tests/test_web_*.py)."""
    from test_reports import BROWSER_ARGS, CHROMIUM, _browser_or_skip

    sync_playwright = _browser_or_skip()
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        yield chromium
        chromium.close()
