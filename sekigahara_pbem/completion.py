"""Tab completion (docs/cli.md): click's own, for bash, zsh and fish, and PowerShell's
(Windows' shell, which click writes no script for) on the same protocol. The script a
shell sources calls `seki` with COMPLETE_VAR set; click's `main` answers it then. Imported
by `seki --show-completion` and `--install-completion`, and by `main` when a shell asks
(to register PowerShell's answer)."""

from __future__ import annotations

import os
from pathlib import Path

import click
from click.shell_completion import (
    CompletionItem,
    ShellComplete,
    add_completion_class,
    get_completion_class,
    split_arg_string,
)

from .cli import COMPLETE_VAR

INSTALLED = ("bash", "zsh", "fish")  # PowerShell's profile is the player's to add to

# PowerShell 5.1 and 7: the words up to the cursor, and which of them is completed (a new
# one after a space), passed as bash's are; each answer offered as it stands.
POWERSHELL = r"""Register-ArgumentCompleter -Native -CommandName %(prog_name)s -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $line = $commandAst.ToString()
    $upTo = $cursorPosition - $commandAst.Extent.StartOffset
    $line = $line.Substring(0, [Math]::Min($line.Length, $upTo))
    $words = @($line.Trim() -split '\s+')
    $env:COMP_WORDS = $line
    $env:COMP_CWORD = if ($wordToComplete -eq '') { $words.Count } else { $words.Count - 1 }
    $env:%(complete_var)s = 'powershell_complete'
    & %(prog_name)s | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
    Remove-Item Env:COMP_WORDS, Env:COMP_CWORD, Env:%(complete_var)s
}
"""


class PowerShellComplete(ShellComplete):
    """PowerShell's completion: asked as bash's is (COMP_WORDS, COMP_CWORD), answered one
    value a line."""

    name = "powershell"
    source_template = POWERSHELL

    def get_completion_args(self) -> tuple[list[str], str]:
        words = split_arg_string(os.environ["COMP_WORDS"])
        cword = int(os.environ["COMP_CWORD"])
        incomplete = words[cword] if cword < len(words) else ""
        return words[1:cword], incomplete

    def format_completion(self, item: CompletionItem) -> str:
        return item.value


def register() -> None:
    """Let click answer PowerShell as it answers the shells it knows."""
    add_completion_class(PowerShellComplete)


def script(root: click.Command, shell: str) -> str:
    """The script that makes `shell` complete seki's commands and options."""
    register()
    complete = get_completion_class(shell)
    assert complete is not None, shell  # SHELLS are click's and PowerShell's
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
