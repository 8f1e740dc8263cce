"""Signature refusals and `seki verify`'s discrepancies in the reader's language (issue 17):
a tampered packet is refused by `seki view --lang hu` in Hungarian, the SSHSIG reason it
wraps too; an archive whose public state was changed does not verify, said in Hungarian
for a reader whose key directory's config.toml asks for it. The English text, the one
written into files, is unchanged."""

from __future__ import annotations

from click.testing import CliRunner
from test_i18n import _new_game

from sekigahara_pbem.cli import app
from sekigahara_pbem.protocol.store import GameDir


def test_a_tampered_packet_is_refused_in_hungarian(tmp_path):
    packet = GameDir(_new_game(tmp_path)).packet(1, "ishida")
    text = packet.read_text()
    assert "\nseq: 1\n" in text
    packet.write_text(text.replace("\nseq: 1\n", "\nseq: 2\n", 1))
    args = ["view", str(packet), "--key", "alice"]
    env = {"SEKI_HOME": str(tmp_path / "alice"), "LANG": "C"}
    hu = CliRunner().invoke(app, [*args, "--lang", "hu"], env=env)
    assert hu.exit_code == 3, hu.output  # a bad signature: the packet does not verify
    assert (
        "hibás aláírás (aláíró: 'ref'): a dokumentumot aláírás után megváltoztatták "
        "(SSHSIG: az aláírás nem egyezik a dokumentummal)"
    ) in hu.output
    assert "Traceback" not in hu.output
    en = CliRunner().invoke(app, args, env=env)
    assert en.exit_code == 3, en.output
    assert (
        "bad signature by 'ref': the document was changed after signing "
        "(SSHSIG: the signature does not match the document)"
    ) in en.output


def test_seki_verify_says_the_discrepancy_in_hungarian(tmp_path):
    g = _new_game(tmp_path)
    public = GameDir(g).public_state
    public.write_text(public.read_text() + "extra: 1\n")
    reader = tmp_path / "reader"
    reader.mkdir()
    env = {"SEKI_HOME": str(reader), "LANG": "C"}
    en = CliRunner().invoke(app, ["verify", str(g)], env=env)
    assert en.exit_code == 3, en.output  # does not verify
    assert "public/state.yaml: not the public view of record 1" in en.output
    (reader / "config.toml").write_text('lang = "hu"\n')
    hu = CliRunner().invoke(app, ["verify", str(g)], env=env)
    assert hu.exit_code == 3, hu.output
    assert "public/state.yaml: nem a jegyzőkönyv nyilvános nézete (1. jegyzőkönyv)" in hu.output
    assert "not the public view" not in hu.output
