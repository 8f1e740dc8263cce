"""`seki docs` (issue 31): the documents ship inside the package, so the help's and the
messages' pointers (`seki docs play`) reach a player who installed a wheel and never saw
the repository. The wheel built from the repository holds every docs/*.md, byte for byte,
as package data of `sekigahara_pbem.docs` (sekigahara_pbem/docs links to ../docs)."""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

from cligame import seki

ROOT = Path(__file__).parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
LEFT_OUT = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__",
                                  ".*_cache", ".hypothesis", "games")  # fmt: skip


def test_seki_docs_lists_every_document_with_its_title(tmp_path):
    listed = seki(tmp_path, "x", "docs")
    assert listed.exit_code == 0, listed.output
    rows = [line.split(None, 1) for line in listed.stdout.splitlines()]
    assert [topic for topic, _title in rows] == [p.stem for p in DOCS]
    for (_topic, title), path in zip(rows, DOCS, strict=True):
        heading = next(x for x in path.read_text(encoding="utf-8").splitlines() if x[:2] == "# ")
        assert title == heading[2:]


def test_seki_docs_prints_one_by_its_topic_or_file_name(tmp_path):
    text = (ROOT / "docs" / "two-party.md").read_text(encoding="utf-8")
    assert seki(tmp_path, "x", "docs", "two-party").stdout == text
    assert seki(tmp_path, "x", "docs", "two-party.md").stdout == text


def test_an_unknown_topic_is_refused_with_the_topics(tmp_path):
    done = seki(tmp_path, "x", "docs", "rules")
    assert done.exit_code == 1 and done.stdout == ""
    assert "no document 'rules'" in done.stderr and "play, protocol" in done.stderr


def test_the_help_points_to_seki_docs_not_to_the_repository(tmp_path):
    """Every `seki docs TOPIC` the help names is a topic `seki docs` has."""
    commands = (("demo",), ("game", "new"), ("bot", "run"), ("status",), ())
    shown = " ".join(seki(tmp_path, "x", *command, "--help").stdout for command in commands)
    words = " ".join(shown.replace("│", " ").split())
    named = set(re.findall(r"seki docs ([a-z][a-z-]*[a-z])", words))
    assert len(named) >= 4 and named <= {p.stem for p in DOCS}, named
    assert "docs/" not in words


def test_the_wheel_holds_the_documents(tmp_path):
    """`pip wheel` of a copy of the repository (built outside it: no build/ left in the
    checkout); its files list every document under sekigahara_pbem/docs/, and the
    computer player's weights (bot/weights.toml), which it reads when it is imported."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=LEFT_OUT)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "w"),
         str(source)], capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [wheel] = (tmp_path / "w").glob("sekigahara_pbem-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {n: archive.read(n) for n in archive.namelist() if "/docs/" in n}
        weights = archive.read("sekigahara_pbem/bot/weights.toml")
    assert weights == (ROOT / "sekigahara_pbem" / "bot" / "weights.toml").read_bytes()
    assert sorted(shipped) == [f"sekigahara_pbem/docs/{p.name}" for p in DOCS]
    for path in DOCS:
        assert shipped[f"sekigahara_pbem/docs/{path.name}"] == path.read_bytes()


def test_a_checkout_without_symbolic_links_says_how_to_get_the_documents(tmp_path):
    """Git for Windows checks the link sekigahara_pbem/docs out as a small text file holding
    its target unless core.symlinks is on; seki run from such a checkout says what is
    missing and why. (A copy, not a clone: the sdist's tests run without a repository.)"""
    clone = tmp_path / "clone"
    shutil.copytree(ROOT, clone, symlinks=True, ignore=LEFT_OUT)
    link = clone / "sekigahara_pbem" / "docs"
    shutil.rmtree(link) if link.is_dir() and not link.is_symlink() else link.unlink()
    link.write_text("../docs")
    # -S: no .pth file runs, so the installed seki's import hook cannot shadow the copy
    path = os.pathsep.join([str(clone), *site.getsitepackages()])
    done = subprocess.run([sys.executable, "-S", "-m", "sekigahara_pbem", "docs", "play"],
                          env={**os.environ, "PYTHONPATH": path}, cwd=clone,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert "holds no documents" in done.stderr and "core.symlinks true" in done.stderr
