"""Running git on a game directory without letting the directory configure it.

A game directory can come from anyone (a received archive, a copy of the other side's
folder), and its `.git/config` and hooks are part of what it holds: `log.showSignature`
with a `gpg.ssh.program` makes `git log` run a program of the directory's choosing,
`core.fsmonitor` does so on `git status`, hooks on `git commit`. Every git seki runs
overrides each setting that names a program to run (`git -c` wins over the repository's
own config), and nothing else of it is trusted.
"""

from __future__ import annotations

import os

_OVERRIDES = {
    "core.hooksPath": os.devnull,  # no hooks
    "core.fsmonitor": "false",
    "core.pager": "cat",
    "core.sshCommand": "ssh",
    "core.editor": "true",
    "core.askPass": "",
    "core.alternateRefsCommand": "",
    "log.showSignature": "false",
    "gpg.program": "gpg",
    "gpg.ssh.program": "ssh-keygen",
    "gpg.x509.program": "gpgsm",
    "diff.external": "",
    "credential.helper": "",
    "uploadpack.packObjectsHook": "",
    "protocol.allow": "never",
}


def git_command(*args: str) -> list[str]:
    """`git` with the overrides, then `args`."""
    command = ["git"]
    for key, value in _OVERRIDES.items():
        command += ["-c", f"{key}={value}"]
    return [*command, *args]
