"""`--json` for programs (issue 31): `seki verify` and `seki keys show` say what they found
as one JSON document on stdout, with the same exit codes as their words."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from cligame import ok

SEKI = Path(sys.executable).parent / "seki"
DEMO = Path(__file__).parent.parent / "games" / "demo"


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(SEKI), *args], capture_output=True, text=True, timeout=300,
                          env=env)  # fmt: skip


def test_verify_json_says_what_was_checked():
    done = run("verify", str(DEMO), "--json")
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    assert facts["verified"] is True and facts["mode"] == "referee"
    assert facts["records"] == 225 and facts["result"]["winner"] == "ishida"


def test_verify_json_says_why_not(tmp_path):
    broken = tmp_path / "demo"
    shutil.copytree(DEMO, broken, ignore=shutil.ignore_patterns(".git"))
    record = broken / "records" / "000005.txt"
    record.write_text(record.read_text().replace("label:", "label: x", 1))
    done = run("verify", str(broken), "--json")
    assert done.returncode == 3  # does not verify
    facts = json.loads(done.stdout)
    assert facts["verified"] is False and "records/000005.txt" in facts["reason"]


def test_keys_show_json_lists_the_identities(tmp_path):
    ok(tmp_path, "alice", "keys", "new", "alice")
    done = run("keys", "show", "--json", "--dir", str(tmp_path / "alice"))
    assert done.returncode == 0, done.stderr
    [alice] = json.loads(done.stdout)
    assert alice["name"] == "alice" and alice["public"].startswith("seki1:alice:")
