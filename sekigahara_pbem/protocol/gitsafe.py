"""Running git on a game directory without letting the directory configure it.

A game directory can come from anyone (a received archive, a copy of the other side's
folder), and its `.git/config` (with every file it includes), its attributes and its hooks
are part of what it holds: `log.showSignature` with a `gpg.ssh.program` makes `git log`
run a program of the directory's choosing, `core.fsmonitor` does so on `git status`, hooks
on `git commit`, a clean filter its attributes name on `git add`. Nothing a directory
configures may run (docs/referee.md, "The game archive"), which holds by three rules:

- seki runs only the git commands in `COMMANDS`, each with the options that keep it from
  diffing, paging or filtering (no `add`, `commit`, `status` or `diff`: commits are made
  with `hash-object --no-filters`, protocol/store.py);
- every setting git documents as naming a program that is not chosen by an attribute is
  overridden on the command line (`git -c` wins over every config file and its includes);
  the drivers attributes choose (`filter.*`, `diff.*`, `merge.*`) have names of the
  directory's choosing, and none of `COMMANDS` consults them;
- the repository and its work tree are given (`--git-dir`, `--work-tree`), so neither a
  `core.worktree` nor a `.git` found elsewhere is followed.
"""

from __future__ import annotations

import os
from pathlib import Path

_OVERRIDES = {
    "core.hooksPath": os.devnull,  # no hooks (reference-transaction runs on update-ref)
    "core.fsmonitor": "false",
    "core.pager": "cat",
    "core.sshCommand": "ssh",
    "core.gitProxy": "",
    "core.editor": "true",
    "sequence.editor": "true",
    "core.askPass": "",
    "core.alternateRefsCommand": "",
    "log.showSignature": "false",
    "commit.gpgSign": "false",
    "gpg.program": "gpg",
    "gpg.openpgp.program": "gpg",
    "gpg.ssh.program": "ssh-keygen",
    "gpg.x509.program": "gpgsm",
    "gpg.ssh.defaultKeyCommand": "",
    "diff.external": "",
    "interactive.diffFilter": "",
    "credential.helper": "",
    "uploadpack.packObjectsHook": "",
    "receive.procReceiveRefs": "",
    "imap.tunnel": "",
    "web.browser": "",
    "help.browser": "",
    "protocol.allow": "never",
    "submodule.recurse": "false",
    "gc.auto": "0",  # no `git gc --auto` spawned behind a command
    "maintenance.auto": "false",
}

# The commands seki runs, each with the options it always takes: none diffs file contents,
# pages, or reads a file of the work tree through its attributes.
COMMANDS = {
    "init": ["--quiet"],
    "ls-files": ["-z", "--others", "--exclude-standard"],
    "hash-object": ["-w", "--no-filters"],
    "update-index": ["-z", "--index-info"],
    "write-tree": [],
    "read-tree": [],
    "rev-parse": [],
    "update-ref": [],
    "log": ["--no-textconv", "--no-ext-diff", "--no-show-signature"],
    "show": ["--no-textconv", "--no-ext-diff", "--no-show-signature"],
}


def git_command(root: Path, command: str, *args: str) -> list[str]:
    """`git` on the repository `root/.git` with its work tree `root`, the overrides, then
    `command` (one of `COMMANDS`) with its fixed options and `args`."""
    root = Path(os.path.abspath(root))
    line = ["git", "--no-pager", "-C", str(root)]
    line += [f"--git-dir={root / '.git'}", f"--work-tree={root}"]
    for key, value in _OVERRIDES.items():
        line += ["-c", f"{key}={value}"]
    return [*line, command, *COMMANDS[command], *args]
