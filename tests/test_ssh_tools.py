"""Players' own tools check seki's documents (issue 16): every document is an OpenSSH
SSHSIG signature that the real `ssh-keygen -Y verify` accepts with the game's
allowed_signers file; `ssh-keygen -Y sign` with the same key, from a key file or through
a real ssh-agent, makes exactly the signature seki makes, and seki accepts it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import keys, signing, sshsig

SSH_KEYGEN = shutil.which("ssh-keygen")


def _require(tool: str | None, package: str) -> str:
    if tool is None:
        if os.environ.get("SEKI_REQUIRE_SERVERS"):
            pytest.fail(f"SEKI_REQUIRE_SERVERS=1 but {package} is missing")
        pytest.skip(f"{package} is not installed (apt-get install {package})")
    return tool


def _parts(document: str, where: Path) -> tuple[Path, Path]:
    """The document's body and its SSHSIG, as two files, the way docs/crypto.md cuts
    them out with sed."""
    body, sig = where / "body", where / "body.sig"
    head, block = document.split(signing.BEGIN_SIGNATURE + "\n")
    body.write_text(head.split(signing.BEGIN_DOCUMENT + "\n")[1])
    sig.write_text(block[block.index(sshsig.BEGIN) :].split(signing.END_SIGNATURE)[0])
    return body, sig


def _ssh_verify(allowed: Path, principal: str, namespace: str, body: Path, sig: Path):
    with body.open("rb") as message:
        return subprocess.run(
            [SSH_KEYGEN, "-Y", "verify", "-f", str(allowed), "-I", principal, "-n", namespace,
             "-s", str(sig)],
            stdin=message, capture_output=True, text=True,
        )  # fmt: skip


def test_ssh_keygen_verifies_every_kind_of_document_of_a_game(tmp_path):
    _require(SSH_KEYGEN, "openssh-client")
    runner = CliRunner()

    def seki(who: str, *args: str) -> str:
        result = runner.invoke(app, list(args), env={"SEKI_HOME": str(tmp_path / who)})
        assert result.exit_code == 0, result.output
        return result.output

    seki("ref", "keys", "new", "ref")
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(seki(name, "keys", "new", name))
    game = tmp_path / "g"
    players = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    seki("ref", "game", "new", str(game), "--key", "ref", *players)
    joins = [tmp_path / "ja.txt", tmp_path / "jb.txt"]
    seki("alice", "join", str(game / "game.txt"), "--key", "alice", "--out", str(joins[0]))
    seki("bob", "join", str(game / "game.txt"), "--key", "bob", "--out", str(joins[1]))
    seki("ref", "adjudicate", str(game), *map(str, joins), "--key", "ref")
    seeds = [tmp_path / "sa.txt", tmp_path / "sb.txt"]
    seki("alice", "join", str(joins[1]), "--key", "alice", "--out", str(seeds[0]))
    seki("bob", "join", str(joins[0]), "--key", "bob", "--out", str(seeds[1]))
    seki("ref", "adjudicate", str(game), *map(str, seeds), "--key", "ref")
    turn = tmp_path / "turn.txt"
    seki("alice", "play", "--from", str(game / "packets"), "--key", "alice", "--choose", "1",
         "--out", str(turn))  # fmt: skip
    documents = [game / "game.txt", joins[0], game / "records" / "000001.txt",
                 game / "packets" / "000001-ishida.txt", turn]  # fmt: skip
    allowed = game / "allowed_signers"
    for path in documents:
        text = path.read_text()
        block = text.split(signing.BEGIN_SIGNATURE + "\n")[1]
        signer = block.split("signer: ")[1].split("\n")[0]
        body, sig = _parts(text, tmp_path)
        namespace = signing.namespace(body.read_text())
        done = _ssh_verify(allowed, signer, namespace, body, sig)
        assert done.returncode == 0, (path.name, done.stderr)
        assert f'Good "{namespace}" signature for {signer}' in done.stdout + done.stderr
        body.write_text(body.read_text().replace("\n", " \n", 1))  # one byte more
        assert _ssh_verify(allowed, signer, namespace, body, sig).returncode != 0


def _ssh_key(tmp_path: Path) -> tuple[Path, keys.Identity]:
    key = tmp_path / "id_ed25519"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", "alice", "-f", str(key)],
                   check=True)  # fmt: skip
    return key, keys.from_ssh_key("alice", key.read_bytes())


def test_ssh_keygen_sign_makes_exactly_the_signature_seki_makes(tmp_path):
    _require(SSH_KEYGEN, "openssh-client")
    key, identity = _ssh_key(tmp_path)
    body = "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\nactions: []\n"
    message = tmp_path / "turn"
    message.write_text(body)
    namespace = signing.namespace(body)
    subprocess.run([SSH_KEYGEN, "-Y", "sign", "-q", "-f", str(key), "-n", namespace, str(message)],
                   check=True, capture_output=True)  # fmt: skip
    theirs = (tmp_path / "turn.sig").read_text()
    assert theirs == sshsig.sign(identity.signing, namespace, body.encode())
    document = signing.sign(body, identity)
    assert theirs in document
    assert signing.verify(document, [identity.public]).body == body


def test_a_signature_made_through_ssh_agent_is_accepted(tmp_path):
    """The key never leaves ssh-agent: ssh-keygen signs with it given the public key."""
    _require(SSH_KEYGEN, "openssh-client")
    agent = _require(shutil.which("ssh-agent"), "openssh-client")
    key, identity = _ssh_key(tmp_path)
    socket = tmp_path / "agent.sock"
    process = subprocess.Popen([agent, "-D", "-a", str(socket)], stdout=subprocess.DEVNULL)
    try:
        env = {**os.environ, "SSH_AUTH_SOCK": str(socket)}
        for _ in range(50):
            if socket.exists():
                break
            time.sleep(0.1)
        subprocess.run([shutil.which("ssh-add"), "-q", str(key)], env=env, check=True)
        key.unlink()  # from now on only the agent holds the private key
        body = "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 2\nactions: []\n"
        message = tmp_path / "turn"
        message.write_text(body)
        subprocess.run(
            [SSH_KEYGEN, "-Y", "sign", "-q", "-f", str(tmp_path / "id_ed25519.pub"),
             "-n", signing.namespace(body), str(message)],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
        armoured = (tmp_path / "turn.sig").read_text()
        sshsig.verify(identity.public.signing, signing.namespace(body), body.encode(), armoured)
        document = signing.sign(body, identity)
        assert armoured in document  # the same signature, byte for byte
    finally:
        process.terminate()
        process.wait()


def test_the_commands_in_docs_crypto_check_a_document(tmp_path):
    """docs/crypto.md, "Check it without seki": its shell lines, run as written."""
    _require(SSH_KEYGEN, "openssh-client")
    _, identity = _ssh_key(tmp_path)
    doc = tmp_path / "DOC"
    doc.write_text(signing.sign("format: seki-turn/1\ngame: g\nanswers: 3\n", identity))
    from sekigahara_pbem.protocol.game import ALLOWED_SIGNERS

    line = sshsig.allowed_signers_line("alice", identity.public.signing, ["*@sekigahara-pbem"])
    (tmp_path / ALLOWED_SIGNERS).write_text(line + "\n")
    text = (Path(__file__).parent.parent / "docs" / "crypto.md").read_text()
    section = text.split("**Check it without seki.**")[1]
    commands = section.split("```sh\n")[1].split("```")[0]
    done = subprocess.run(["bash", "-ec", commands], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert 'Good "turn@sekigahara-pbem" signature for alice' in done.stdout + done.stderr


def test_git_checks_the_referees_signed_commits(fresh_game):
    """Issue 16: every commit the referee makes is SSH-signed with its key, and git itself
    (gpg.format ssh, the game's allowed_signers) says so; a commit made by someone else
    is not."""
    from sekigahara_pbem.protocol import joins
    from sekigahara_pbem.referee import adjudication as referee

    _require(SSH_KEYGEN, "openssh-client")
    root, ref, players, definition = fresh_game
    for name, text in joins.opening(definition, players):
        referee.adjudicate(root, ref, [(name, text.encode())], "2026-11-22T12:00:00Z")
    signers = f"gpg.ssh.allowedSignersFile={root / 'allowed_signers'}"

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-c", signers, *args], cwd=root, capture_output=True,
                              text=True)  # fmt: skip

    log = git("log", "--format=%H %G? %GS")
    commits = log.stdout.split("\n")[:-1]
    assert len(commits) == 6, log  # created, two joins, two seeds, record 1 (the setup)
    assert all(line.endswith(" G ref") for line in commits), log.stdout
    assert git("verify-commit", "HEAD").returncode == 0
    assert git("fsck", "--strict").returncode == 0
    text = (Path(__file__).parent.parent / "docs" / "crypto.md").read_text()
    section = text.split("**The archive's history.**")[1]
    commands = section.split("```sh\n")[1].split("```")[0]  # docs/crypto.md, as written
    done = subprocess.run(["bash", "-ec", commands], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0 and " G ref record 1: setup (rule 5)" in done.stdout, done
    (root / "extra.txt").write_text("not the referee's\n")
    git("add", "extra.txt")
    git("-c", "user.name=someone", "-c", "user.email=x@y", "commit", "-q", "-m", "mine")
    assert git("verify-commit", "HEAD").returncode != 0


def test_age_opens_a_packet_section_as_docs_crypto_says(tmp_path):
    """Issue 16: a player opens its own packet's section with the real `age`, with its SSH
    key or with its seki key exported by `seki keys age`, by docs/crypto.md's commands."""
    from sekigahara_pbem.crypto.keystore import write_identity
    from sekigahara_pbem.protocol import game, packets
    from sekigahara_pbem.protocol.component_files import components_hash, load_components
    from sekigahara_pbem.rules.cycle.setup import setup

    _require(shutil.which("age"), "age")
    _require(SSH_KEYGEN, "openssh-client")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    key, alice = _ssh_key(home / ".ssh")
    key.rename(home / ".ssh" / "id_ed25519")
    write_identity(tmp_path / "seki", alice)
    referee = keys.generate("ref")
    players = {"ishida": alice.public, "tokugawa": keys.generate("bob").public}
    definition = game.create(tmp_path / "g", "g", referee, players, components_hash(), {},
                             "2026-11-22T12:00:00Z")  # fmt: skip
    comp = load_components()
    state, events = setup(comp, "00" * 32, {})
    packet = packets.build(
        definition, referee, comp, packets.Following(1, "0" * 64, {}), state, events, "ishida"
    )
    (tmp_path / "PACKET").write_text(packet)
    text = (Path(__file__).parent.parent / "docs" / "crypto.md").read_text()
    commands = text.split("**Open your packet with age.**")[1].split("```sh\n")[1].split("```")[0]
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # seki itself
    env = {**os.environ, "HOME": str(home), "SEKI_HOME": str(tmp_path / "seki"), "PATH": path}
    done = subprocess.run(["bash", "-ec", commands], cwd=tmp_path, env=env, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    import json

    section = json.loads((tmp_path / "section.json").read_text())
    assert section["bound"] == {"game": "g", "seq": 1, "to": "ishida", "purpose": "packet"}
    assert section["view"] == packets.open_packet(definition, packet, alice, "p").view
    first = subprocess.run(["bash", "-ec", commands.split("seki keys age")[0]], cwd=tmp_path,
                           env=env, capture_output=True, text=True)  # fmt: skip
    assert first.returncode == 0 and json.loads((tmp_path / "section.json").read_text())


def _seki_env(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sekigahara_pbem", *args], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_an_identity_on_ssh_agent_plays_and_no_copy_of_the_key_is_written(
    fresh_game, tmp_path, monkeypatch
):
    """Issue 16: `seki keys new --ssh-key KEY.pub` signs through ssh-agent (the private key
    file gone); `--ssh-key KEY` signs with the file where it is. Neither identity file
    holds the SSH key, and what they sign verifies."""
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.protocol import game, joins
    from sekigahara_pbem.protocol.component_files import components_hash

    _require(SSH_KEYGEN, "openssh-client")
    agent = _require(shutil.which("ssh-agent"), "openssh-client")
    key, _ = _ssh_key(tmp_path)
    socket = tmp_path / "agent.sock"
    process = subprocess.Popen([agent, "-D", "-a", str(socket)], stdout=subprocess.DEVNULL)
    try:
        env = {**os.environ, "SSH_AUTH_SOCK": str(socket), "SEKI_HOME": str(tmp_path / "h")}
        for _ in range(50):
            if socket.exists():
                break
            time.sleep(0.1)
        subprocess.run([shutil.which("ssh-add"), "-q", str(key)], env=env, check=True)
        other = tmp_path / "other"
        subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(other)],
                       check=True)  # fmt: skip
        made = _seki_env("keys", "new", "alice", "--ssh-key", f"{key}.pub", env=env)
        assert made.returncode == 0, made.stderr
        assert _seki_env("keys", "new", "bob", "--ssh-key", str(other), env=env).returncode == 0
        key.unlink()  # only the agent holds alice's key now
        identities = {n: tmp_path / "h" / f"{n}.identity" for n in ("alice", "bob")}
        for path in identities.values():
            assert "OPENSSH PRIVATE KEY" not in path.read_text()
        root, ref, _, _ = fresh_game
        alice, bob = (read_identity(identities[n]) for n in ("alice", "bob"))
        players = {"ishida": alice.public, "tokugawa": bob.public}
        g = tmp_path / "g2"
        definition = game.create(g, "g2", ref, players, components_hash(), {},
                                 "2026-11-22T12:00:00Z")  # fmt: skip
        (tmp_path / "game.txt").write_text(definition.text)
        for name, side in (("alice", "ishida"), ("bob", "tokugawa")):
            out = tmp_path / f"join-{side}.txt"
            done = _seki_env("join", str(tmp_path / "game.txt"), "--key", name, "--out",
                             str(out), env=env)  # fmt: skip
            assert done.returncode == 0, done.stderr
            join = joins.parse_join(definition, out.read_text(), out.name)  # signature checked
            assert join.side == side
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket))
        again = joins.make_join(definition, alice)  # through the agent: the same seed
        assert again == (tmp_path / "join-ishida.txt").read_text()
    finally:
        process.terminate()
        process.wait()


def test_a_passphrase_protected_identity(tmp_path):
    """Issue 16: `seki keys new --passphrase` locks the identity file with age's scrypt; seki
    asks for the passphrase at the terminal (or takes $SEKI_PASSPHRASE), refuses a wrong
    one in one line, and `age -d` opens the file with the same passphrase."""
    import pexpect

    env = {**os.environ, "SEKI_HOME": str(tmp_path / "h"), "SEKI_PASSPHRASE": "rice and tea"}
    made = _seki_env("keys", "new", "alice", "--passphrase", env=env)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "h" / "alice.identity"
    assert path.read_text().startswith("-----BEGIN AGE ENCRYPTED FILE-----")
    shown = _seki_env("keys", "show", "alice", env=env)
    assert shown.returncode == 0 and "fingerprint" in shown.stdout
    wrong = _seki_env("keys", "show", "alice", env={**env, "SEKI_PASSPHRASE": "tea"})
    assert wrong.returncode == 1 and wrong.stderr.count("\n") == 1, wrong.stderr
    assert "passphrase" in wrong.stderr
    quiet = {k: v for k, v in env.items() if k != "SEKI_PASSPHRASE"}
    child = pexpect.spawn(sys.executable, ["-m", "sekigahara_pbem", "keys", "show", "alice"],
                          env=quiet, encoding="utf-8", timeout=60)  # fmt: skip
    child.expect("Passphrase for .*alice.identity: ")
    child.sendline("rice and tea")
    child.expect("fingerprint")
    child.expect(pexpect.EOF)
    age = shutil.which("age")
    if age is not None:
        child = pexpect.spawn(age, ["-d", str(path)], encoding="utf-8", timeout=60)
        child.expect("(?i)passphrase")
        child.sendline("rice and tea")
        child.expect("format: seki-identity/1")
        child.expect(pexpect.EOF)
