"""The public view of a record, from a game directory's public files only.

The last record's view is public/state.yaml. An earlier record's view is no longer a file,
but the game directory is a git repository with one commit per step, so the commit that
added records/<seq>.txt holds public/state.yaml as it was then. Either way the view is
checked against the hash the signed record carries. Sealed files are never opened.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ..protocol import documents as docs
from ..protocol.gitsafe import git_command
from ..protocol.store import GameDir
from ..refusal import N_, Code, Refusal
from ..rules.state import canonical

if TYPE_CHECKING:
    from ..rules.components import Components
    from ..rules.state_types import State
    from .replay import Record

STATE_FILE = "public/state.yaml"


def last_record(gd: GameDir) -> int:
    """The number of the archive's last record; refused if it has none (`seki report`,
    `seki replay`)."""
    last = gd.last_seq()
    if last == 0:
        raise Refusal(
            N_("{path}: the game has not started (no records yet)"),
            code=Code.NOT_STARTED,
            path=gd.root,
        )
    return last


def replayed(
    gd: GameDir,
    comp: Components,
    bodies: dict[int, dict],
    states: dict[int, State],
    stages: dict[int, tuple[tuple[State, list], ...]],
) -> list[Record]:
    """Every record as `seki replay` shows it, from a verified archive's record bodies
    and, once it is revealed, its replayed states (and of a record of several actions,
    the state after each: `stages`): the public view and each side's of the state (its
    public view is the record's public_state, which verify checked); before, the public
    view from the public files and git's history of them."""
    from .replay import Record, staged

    out = []
    for seq, body in sorted(bodies.items()):
        events = body.get("events", [])
        if seq in states:
            out += staged(seq, states[seq], events, stages.get(seq, ()), comp)
        else:
            shown, _source = public_view(gd, seq, body["public_state"])
            out.append(Record(seq, shown, events, {}))
    return out


def public_view(gd: GameDir, seq: int, expected_hash: str) -> tuple[dict, str]:
    """(view, where it came from), or ({}, why there is none) for a record whose view
    cannot be found (in English: the caller says it in words, reports/text.py); a view
    that does not match the record's hash is refused (a Refusal, shown with explain)."""
    if seq == gd.last_seq():
        text = docs.read_capped(gd.public_state)
        return _checked(text, expected_hash, STATE_FILE), STATE_FILE
    kept = _from_git(gd.root, gd.record(seq))
    if kept is None:
        return {}, (
            f"the public view of record {seq} is not available: {STATE_FILE} holds the last "
            "record's, and the directory has no git history of it"
        )
    return _checked(kept, expected_hash, f"{STATE_FILE} (git)"), f"{STATE_FILE} in git history"


def _checked(text: str, expected_hash: str, where: str) -> dict:
    if len(text.encode("utf-8")) > docs.MAX_BYTES:
        raise Refusal(N_("larger than {limit} bytes"), at=where, limit=docs.MAX_BYTES)
    try:
        view = docs.safe_load(text)
    except yaml.YAMLError:
        raise Refusal(N_("not valid YAML"), at=where) from None
    if not isinstance(view, dict) or docs.sha256(canonical(view)) != expected_hash:
        raise Refusal(N_("does not match the public_state hash of its record"), at=where)
    return view


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(git_command(root, *args), capture_output=True, check=False)
    except OSError:  # boundary: no git program to run
        return None
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def _from_git(root: Path, record: Path) -> str | None:
    """public/state.yaml in the commit that added the record, if the game directory is
    itself a git repository (gitsafe names its `.git`: a folder inside another repository
    has none, and git fails)."""
    name = record.relative_to(root).as_posix()
    commits = _git(root, "log", "--diff-filter=A", "--format=%H", "--", name)
    if not commits or not commits.split():
        return None
    return _git(root, "show", f"{commits.split()[-1]}:{STATE_FILE}")
