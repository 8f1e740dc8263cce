"""Tab completion (issue 31): `seki --show-completion SHELL` prints the script a shell
sources, `seki --install-completion SHELL` puts it where the shell reads it; the script
asks the real `seki` (with _SEKI_COMPLETE set) for the words. Real bash completes
`seki ver<TAB>` to `verify`; zsh and fish are asked the way their scripts ask (click's
protocol); PowerShell as seki's own script asks (no pwsh here to run it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
SEKI = BIN / "seki"
BASH = shutil.which("bash")


def _env(home: Path, **extra: str) -> dict:
    """seki on the PATH (the scripts call it by name), and a home of the test's own."""
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    return {"PATH": path, "HOME": str(home), "SEKI_HOME": str(home / "seki"), "LANG": "C",
            **extra}  # fmt: skip


def _run(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([str(SEKI), *args], capture_output=True, text=True, env=env,
                          timeout=60)  # fmt: skip


def _bash_completes(script: str, words: list[str], home: Path) -> list[str]:
    """What bash offers for the last of `words`, after sourcing `script`: the completion
    function `complete -p seki` names, called as bash calls it on <TAB>."""
    line = " ".join(words)
    program = (
        f"source {script}\n"
        "function=$(complete -p seki | sed -E 's/.*-F ([^ ]+).*/\\1/')\n"
        f"COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE='{line}'\n"
        '"$function" seki\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run([BASH, "--norc", "--noprofile", "-c", program], capture_output=True,
                          text=True, env=_env(home), timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(BASH is None, reason="no bash")
def test_real_bash_completes_commands_options_and_topics(tmp_path):
    script = tmp_path / "seki.bash"
    shown = _run("--show-completion", "bash", env=_env(tmp_path))
    assert shown.returncode == 0, shown.stderr
    script.write_text(shown.stdout)
    assert _bash_completes(str(script), ["seki", "ver"], tmp_path) == ["verify"]
    assert _bash_completes(str(script), ["seki", "keys", ""], tmp_path) == ["new", "show", "age"]
    assert "--json" in _bash_completes(str(script), ["seki", "status", "--"], tmp_path)
    topics = _bash_completes(str(script), ["seki", "docs", "t"], tmp_path)
    assert topics == ["translating", "two-party"]


@pytest.mark.skipif(BASH is None, reason="no bash")
def test_install_completion_puts_the_script_where_bash_reads_it(tmp_path):
    done = _run("--install-completion", "bash", env=_env(tmp_path))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert "installed" in done.stderr
    bashrc = tmp_path / ".bashrc"
    sourced = bashrc.read_text().split("source ", 1)[1].split()[0].strip("'")
    assert Path(sourced).is_file() and Path(sourced).is_relative_to(tmp_path)
    assert _bash_completes(str(bashrc), ["seki", "ver"], tmp_path) == ["verify"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shells_are_answered_as_their_scripts_ask(shell, tmp_path):
    """Each script names the variable and the instruction it calls seki with (click's
    protocol: the words in COMP_WORDS, the one completed at COMP_CWORD); seki, called so,
    offers `verify` with its description."""
    script = _run("--show-completion", shell, env=_env(tmp_path))
    assert script.returncode == 0, script.stderr
    instruction = f"{shell}_complete"
    assert instruction in script.stdout and "_SEKI_COMPLETE" in script.stdout
    asking = {"_SEKI_COMPLETE": instruction, "COMP_WORDS": "seki ver", "COMP_CWORD": "ver"}
    if shell == "zsh":
        asking["COMP_CWORD"] = "1"
    offered = _run(env=_env(tmp_path, **asking))
    assert offered.returncode == 0, offered.stderr
    assert "verify" in offered.stdout and "Replay the game" in offered.stdout
    assert "view" not in offered.stdout


def test_powershell_is_answered_as_its_script_asks(tmp_path):
    """The PowerShell script (Register-ArgumentCompleter) passes the line up to the cursor
    in COMP_WORDS and the word completed in COMP_CWORD, a new one after a space; seki
    answers one value a line, which the script offers as they stand. Installing it is
    the player's one line in $PROFILE, which the refusal gives."""
    script = _run("--show-completion", "powershell", env=_env(tmp_path))
    assert script.returncode == 0, script.stderr
    assert "Register-ArgumentCompleter -Native -CommandName seki" in script.stdout
    assert "$env:_SEKI_COMPLETE = 'powershell_complete'" in script.stdout

    def offered(line: str, cword: int) -> list[str]:
        asking = {"_SEKI_COMPLETE": "powershell_complete", "COMP_WORDS": line,
                  "COMP_CWORD": str(cword)}  # fmt: skip
        done = _run(env=_env(tmp_path, **asking))
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert offered("seki ver", 1) == ["verify"]
    assert offered("seki keys ", 2) == ["new", "show", "age"]
    assert "--two-party" in offered("seki demo --tw", 2)
    done = _run("--install-completion", "powershell", env=_env(tmp_path))
    assert done.returncode == 2 and "seki --show-completion powershell >> $PROFILE" in " ".join(
        done.stderr.split()
    )


def test_an_unknown_shell_is_a_usage_error(tmp_path):
    done = _run("--show-completion", "tcsh", env=_env(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    said = " ".join(done.stderr.replace("│", " ").split())  # out of click's box
    assert "'--show-completion': expected one of bash, zsh, fish, powershell" in said
