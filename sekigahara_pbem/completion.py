"""Tab completion (docs/cli.md): click's own, for bash, zsh and fish. The script a shell
sources calls `seki` with COMPLETE_VAR set; click's `main` answers it then. Imported only
by `seki --show-completion` and `--install-completion`."""

from __future__ import annotations

from pathlib import Path

import click
from click.shell_completion import get_completion_class

COMPLETE_VAR = "_SEKI_COMPLETE"  # what click's scripts set when the shell asks
SHELLS = ("bash", "zsh", "fish")  # the shells click writes completion scripts for


def script(root: click.Command, shell: str) -> str:
    """The script that makes `shell` complete seki's commands and options."""
    complete = get_completion_class(shell)
    assert complete is not None, shell  # SHELLS are click's
    return complete(root, {}, "seki", COMPLETE_VAR).source()


def install(root: click.Command, shell: str) -> Path:
    """Write the script where `shell` reads it at start, and return where: bash's sourced
    from ~/.bashrc, zsh's in ~/.zfunc (put on zsh's fpath by ~/.zshrc), fish's in its
    completions folder."""
    home = Path.home()
    places = {
        "bash": (home / ".bash_completions" / "seki.sh", home / ".bashrc"),
        "zsh": (home / ".zfunc" / "_seki", home / ".zshrc"),
        "fish": (home / ".config" / "fish" / "completions" / "seki.fish", None),
    }
    path, rc = places[shell]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script(root, shell) + "\n", encoding="utf-8")
    if rc is not None:
        line = (
            f"source '{path}'"
            if shell == "bash"
            else "fpath+=~/.zfunc; autoload -Uz compinit; compinit"
        )
        _add_line(rc, line)
    return path


def _add_line(rc: Path, line: str) -> None:
    """`line` at the end of the shell's start file, unless it is there already."""
    text = rc.read_text(encoding="utf-8") if rc.is_file() else ""
    if line not in text:
        rc.write_text(f"{text.rstrip()}\n{line}\n".lstrip(), encoding="utf-8")
