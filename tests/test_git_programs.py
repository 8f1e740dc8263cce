"""A game directory's git settings run nothing (issue 37, hole 2): its `.git/config`,
whatever it includes, and its attributes may name a program for every setting git
documents as one, and no seki command that commits there (adjudicate, reveal, solo) or
reads its history (report) runs any of them. The table below is the list of git's
program-valued settings (git-config(1), gitattributes(5)); each names a script of its own
that leaves its name in a marker file when it runs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from cligame import ok, signed_bid, started

pytestmark = pytest.mark.skipif(os.name == "nt", reason="the planted programs are sh scripts")

# (setting, how the value names the program): "shell" is a command line git gives the
# shell, "path" a program git runs itself, "bang" an alias or update method starting "!".
SETTINGS = [
    # attribute drivers: .git/info/attributes and .gitattributes name them (ATTRIBUTES)
    ("filter.evil.clean", "shell"),
    ("filter.evil.smudge", "shell"),
    ("filter.proc.process", "shell"),
    ("diff.conv.textconv", "shell"),
    ("diff.evil.command", "shell"),
    ("merge.evil.driver", "shell"),
    # settings of git's own
    ("core.fsmonitor", "path"),
    ("core.hooksPath", "hooks"),
    ("core.pager", "shell"),
    ("core.editor", "shell"),
    ("sequence.editor", "shell"),
    ("core.sshCommand", "shell"),
    ("core.gitProxy", "shell"),
    ("core.askPass", "path"),
    ("core.alternateRefsCommand", "shell"),
    ("diff.external", "shell"),
    ("interactive.diffFilter", "shell"),
    ("gpg.program", "path"),
    ("gpg.openpgp.program", "path"),
    ("gpg.ssh.program", "path"),
    ("gpg.x509.program", "path"),
    ("gpg.ssh.defaultKeyCommand", "shell"),
    ("credential.helper", "shell"),
    ("credential.https://example.com.helper", "shell"),
    ("uploadpack.packObjectsHook", "shell"),
    ("receive.procReceiveRefs", "shell"),
    ("imap.tunnel", "shell"),
    ("web.browser", "path"),
    ("help.browser", "path"),
    ("instaweb.browser", "path"),
    ("instaweb.httpd", "shell"),
    ("browser.evil.cmd", "shell"),
    ("man.evil.cmd", "shell"),
    ("difftool.evil.cmd", "shell"),
    ("mergetool.evil.cmd", "shell"),
    ("guitool.evil.cmd", "shell"),
    ("pager.log", "shell"),
    ("pager.show", "shell"),
    ("pager.status", "shell"),
    ("pager.commit", "shell"),
    ("alias.add", "bang"),
    ("alias.commit", "bang"),
    ("alias.status", "bang"),
    ("remote.origin.receivepack", "shell"),
    ("remote.origin.uploadpack", "shell"),
    ("submodule.evil.update", "bang"),
    ("sendemail.smtpServer", "path"),
    ("sendemail.toCmd", "shell"),
    ("sendemail.ccCmd", "shell"),
    # in a file the repository's config includes, and one it includes on a condition
    ("filter.included.clean", "shell"),
    ("diff.included.textconv", "shell"),
    ("filter.conditional.clean", "shell"),
]
TURNED_ON = {  # what makes git use the programs above
    "log.showSignature": "true",
    "gpg.format": "ssh",
    "commit.gpgSign": "true",
    "tag.gpgSign": "true",
    "diff.tool": "evil",
    "merge.tool": "evil",
    "man.viewer": "evil",
    "remote.origin.url": "https://example.com/game.git",
    "remote.origin.vcs": "evil",
    "diff.renames": "copies",
    "status.submoduleSummary": "true",
    "core.untrackedCache": "true",
}
INCLUDED = ("filter.included.clean", "diff.included.textconv")
CONDITIONAL = ("filter.conditional.clean",)
ATTRIBUTES = (
    "* filter=evil diff=evil merge=evil\n"
    "*.txt diff=conv\n"
    "records/* filter=proc\n"
    "public/* filter=included diff=included\n"
    "packets/* filter=conditional\n"
)


def _program(bin_dir: Path, label: str, fired: Path) -> Path:
    """A script that writes `label` to `fired` and passes its input through (a filter)."""
    script = bin_dir / label.replace("/", "_").replace(":", "_")
    script.write_text(f"#!/bin/sh\necho '{label}' >> '{fired}'\nexec cat\n", encoding="utf-8")
    script.chmod(0o755)
    return script


def _plant(game: Path, tmp_path: Path) -> Path:
    """Every setting of the table in `game`'s git config, its includes and attributes; the
    marker file the programs write."""
    fired, bin_dir = tmp_path / "fired", tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    hooks = bin_dir / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in ("pre-commit", "commit-msg", "post-commit", "reference-transaction",
                 "post-index-change", "pre-auto-gc", "fsmonitor-watchman"):  # fmt: skip
        _program(hooks, f"hook {hook}", fired).rename(hooks / hook)
        (game / ".git" / "hooks" / hook).write_bytes((hooks / hook).read_bytes())
        (game / ".git" / "hooks" / hook).chmod(0o755)
    included, conditional = tmp_path / "included.gitconfig", tmp_path / "conditional.gitconfig"
    for path in (included, conditional):
        path.write_text("", encoding="utf-8")
    for key, how in SETTINGS:
        program = _program(bin_dir, key, fired)
        value = {"hooks": str(hooks), "bang": f"!{program}"}.get(how, str(program))
        target = included if key in INCLUDED else conditional if key in CONDITIONAL else None
        _config(game, key, value, target)
    for key, value in TURNED_ON.items():
        _config(game, key, value)
    _config(game, "include.path", str(included))
    _config(game, "includeIf.gitdir:/.path", str(conditional))
    (game / ".git" / "info").mkdir(exist_ok=True)
    (game / ".git" / "info" / "attributes").write_text(ATTRIBUTES, encoding="utf-8")
    (game / ".gitattributes").write_text(ATTRIBUTES, encoding="utf-8")
    return fired


def _config(game: Path, key: str, value: str, file: Path | None = None) -> None:
    where = ["--file", str(file)] if file else []
    subprocess.run(["git", "-C", str(game), "config", *where, key, value], check=True)


def _fired(fired: Path) -> list[str]:
    return sorted(set(fired.read_text().split("\n")) - {""}) if fired.exists() else []


def test_plain_git_runs_the_planted_filter_and_textconv(tmp_path):
    """The control: the planting is real, git itself obeys it (on a copy of nothing but
    the planted repository, a file added and diffed)."""
    game = tmp_path / "game"
    subprocess.run(["git", "init", "-q", str(game)], check=True)
    fired = _plant(game, tmp_path)
    for name in ("game.txt", "public/state.yaml", "records/000001.txt", "packets/1.txt"):
        (game / name).parent.mkdir(exist_ok=True)
        (game / name).write_text("x\n", encoding="utf-8")
    git = ["git", "-C", str(game), "-c", "core.hooksPath=/dev/null"]
    subprocess.run([*git, "add", "--all"], capture_output=True)
    (game / "game.txt").write_text("y\n", encoding="utf-8")
    (game / "public/state.yaml").write_text("y\n", encoding="utf-8")
    subprocess.run([*git, "diff", "--no-ext-diff"], capture_output=True)
    assert {
        "filter.evil.clean",
        "filter.proc.process",
        "filter.included.clean",
        "filter.conditional.clean",
        "diff.conv.textconv",
        "diff.included.textconv",
    } <= set(_fired(fired))


def test_adjudicate_reveal_and_report_run_nothing_the_game_directory_names(tmp_path):
    """A referee's game (cligame), every program-valued setting planted in its directory;
    Ishida's bid adjudicated, the game revealed, a report read from its history: every
    step commits or reads git, and no planted program runs."""
    started(tmp_path)
    game = tmp_path / "g"
    fired = _plant(game, tmp_path)
    bid = signed_bid(tmp_path)
    said = ok(tmp_path, "ref", "adjudicate", "g", str(bid), "--key", "ref")
    assert "accepted" in said, said
    ok(tmp_path, "ref", "reveal", "g", "--key", "ref", "--force")
    assert "public report after record 1" in ok(tmp_path, "ref", "report", "g", "--seq", "1")
    assert not _fired(fired), _fired(fired)
    _committed_byte_for_byte(game)


def test_solo_runs_nothing_the_game_directory_names(tmp_path):
    """`seki solo` resumed in a folder whose game directory names every program: the
    turns it adjudicates commit there, and run none of them."""
    from test_solo import A_TURN, solo

    first = solo(tmp_path, "s", "--choose", "1")
    assert first.exit_code == 4, first.output
    game = tmp_path / "s" / "game"
    fired = _plant(game, tmp_path)
    head = _git(game, "rev-parse", "HEAD")
    again = solo(tmp_path, "s", "--choose", A_TURN)
    assert "resuming s" in again.output, again.output
    assert _git(game, "rev-parse", "HEAD") != head  # it committed
    assert not _fired(fired), _fired(fired)
    _committed_byte_for_byte(game)


def _git(game: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(game), "-c", "core.hooksPath=/dev/null",
                           "-c", "core.fsmonitor=false", *args],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout.strip()


def _committed_byte_for_byte(game: Path) -> None:
    """The last commit holds every file of the directory as it is on disk, unfiltered,
    and the repository's index is that commit's tree (a person's `git status` is clean)."""
    assert _git(game, "diff-index", "--cached", "--name-only", "HEAD") == ""
    assert not (game / ".git" / "seki-index").exists()
    listed = _git(game, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
    assert "game.txt" in listed and any(n.startswith("records/") for n in listed)
    for name in listed:
        blob = subprocess.run(["git", "-C", str(game), "cat-file", "blob", f"HEAD:{name}"],
                              capture_output=True, check=True).stdout  # fmt: skip
        assert blob == (game / name).read_bytes(), name
