"""Issue 17 in the two-party mode and the closing report: `seki play` on a two-party
game refuses the other side's bad record in the reader's language (here Hungarian, from
config.toml in the key directory), while the refusal's English text, the one a program or
a record would keep, stays what it was; the closing report the referee's robot sends is
put in words in the reader's language and fits 80 columns."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner
from test_reports import columns

from sekigahara_pbem import i18n
from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keystore import identity_path, read_identity
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol import game
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee.closing import closing_text, statistics

ANSWERS = ",".join(["1"] * 60)


def _seki(root: Path, who: str, *args: str, code: int = 0) -> str:
    env = {"SEKI_HOME": str(root / who), "LANG": "C", "LANGUAGE": "", "LC_ALL": ""}
    result = CliRunner().invoke(app, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    assert "Traceback" not in result.output
    return result.output


def _two_party_game(root: Path) -> tuple[Path, Path, Path]:
    """Alice (Ishida) and Bob (Tokugawa) in a two-party game, both joins taken, played
    until Alice writes a record with a public form for Bob to take: (Alice's directory,
    Bob's, that record)."""
    for name in ("alice", "bob"):
        (root / f"{name}.pub").write_text(_seki(root, name, "keys", "new", name))
    keys = ("--ishida", str(root / "alice.pub"), "--tokugawa", str(root / "bob.pub"))
    alice, bob = root / "alice-game", root / "bob-game"
    _seki(root, "alice", "game", "new", str(alice), "--two-party", "--key", "alice", *keys)
    _seki(root, "bob", "join", str(alice / "game.txt"), "--key", "bob", "--out", str(bob))
    _seki(root, "alice", "play", str(alice), "--key", "alice",
          "-r", str(bob / "records/0001-tokugawa.txt"))  # fmt: skip
    _seki(root, "bob", "play", str(bob), "--key", "bob",
          "-r", str(alice / "records/0000-ishida.txt"))  # fmt: skip
    dirs, names = {"alice": alice, "bob": bob}, {"alice": "bob", "bob": "alice"}
    turn, last = "alice", alice / "records/0002-ishida.txt"  # its first: randomness only
    while True:
        turn = names[turn]
        _seki(root, turn, "play", str(dirs[turn]), "--key", turn, "-r", str(last),
              "--choose", ANSWERS)  # fmt: skip
        last = sorted((dirs[turn] / "records").iterdir())[-1]
        body, _signature = signing.split(last.read_text(encoding="utf-8"))
        if turn == "alice" and any(e.get("public") for e in yaml.safe_load(body)["entries"]):
            return alice, bob, last


def test_a_two_party_refusal_is_shown_in_hungarian(tmp_path):
    """Bob's key directory says `lang = "hu"`: his claim that Alice forfeits, and her
    record forged (an entry's public hash changed, signed again with her key), are refused
    in Hungarian, each after the file and field it names; `--lang en` shows the English
    text the refusal keeps, which is what it was before it was translatable."""
    alice, bob, record = _two_party_game(tmp_path)
    taken = len(list((bob / "records").iterdir()))
    (tmp_path / "bob" / "config.toml").write_text('lang = "hu"\n')
    said = _seki(tmp_path, "bob", "play", str(bob), "--key", "bob", "--claim-forfeit", code=1)
    assert "a másik fél még nem lépte túl a határidőt" in said

    text = record.read_text(encoding="utf-8")
    body, _signature = signing.split(text)
    data = yaml.safe_load(body)
    i = next(i for i, e in enumerate(data["entries"]) if e.get("public"))
    data["entries"][i]["public"] = "0" * 64
    identity = read_identity(identity_path(tmp_path / "alice", "alice"))
    forged = tmp_path / "forged.txt"
    forged.write_text(signing.sign(docs.dump(data), identity), encoding="utf-8")
    args = ("play", str(bob), "--key", "bob", "-r", str(forged))
    said = _seki(tmp_path, "bob", *args, code=1)
    assert f"{forged}: entries[{i}]: public: nem a módosított nyilvános állapot hash-értéke" in said
    said = _seki(tmp_path, "bob", *args, "--lang", "en", code=1)
    assert f"{forged}: entries[{i}]: public: not the hash of the changed public form" in said
    assert len(list((bob / "records").iterdir())) == taken  # nothing taken in


def test_two_party_refusals_keep_their_english_text_and_name_their_section():
    """A two-party document's refusal is a DocumentError, its English text the template
    filled; a cheat's `rule` names the section of docs/two-party.md it answers to."""
    from sekigahara_pbem.twoparty.exchange import DEADLINES, Cheat

    bad = docs.DocumentError("r.txt: entries[0]", "expected a mapping")
    assert str(bad) == "r.txt: entries[0]: expected a mapping"
    cheat = Cheat(
        "{side}'s forfeit claim is not the game ended by forfeit", rule=DEADLINES, side="ishida"
    )
    assert str(cheat) == "ishida's forfeit claim is not the game ended by forfeit"
    assert cheat.rule == "two-party: Deadlines" and cheat.code == "cheat"
    with i18n.using("hu"):
        assert i18n.explain(cheat) == (
            "ishida mulasztás miatti győzelmi igénye nem a mulasztással véget ért játszmát mutatja"
        )
        assert i18n.explain(bad) == "r.txt: entries[0]: várt: leképezés (mapping)"


def test_the_closing_report_is_in_the_readers_language(demo):
    """The closing report of the whole demo game: every sentence and figure's label in
    Hungarian, the figures themselves unchanged, 80 columns; in English, the report as it
    always was."""
    root, _result = demo
    gd = GameDir(root / "game")
    stats = statistics(gd, game.load(gd))
    assert stats["result"] and stats["counts"]
    english = closing_text("demo", stats)
    with i18n.using("hu"):
        hungarian = closing_text("demo", stats)
    assert english.startswith("Game demo is over.\n")
    assert f"  records in the chain: {stats['records']}\n" in english
    assert f"  turn files accepted:  {stats['turn_files']}\n" in english
    assert "The referee has published its seeds and keys (reveal.txt, attached). Anyone with\n" in (
        english
    )
    assert english.endswith(
        "the game's archive can now replay and check every draw and every order:\n"
        "  seki verify GAME-DIRECTORY\n"
    )
    assert hungarian.startswith("Vége a játszmának (demo).\n")
    winner = {"ishida": "Ishida", "tokugawa": "Tokugawa"}[stats["result"]["winner"]]
    assert f"\n{winner} győz " in hungarian  # "győz (" or, on points, "győz győzelmi pontokkal ("
    assert "Játékidő: " in hungarian
    labels = {"battles": "csaták", "moves": "mozgások", "musters": "toborzások"}
    for name, n in stats["counts"].items():
        if name in labels:
            assert f"  {labels[name]}:" in hungarian and f" {n}\n" in hungarian
    assert "jegyzőkönyvek a láncban:" in hungarian and "elfogadott lépésfájlok:" in hungarian
    assert "A játékvezető közzétette a magjait" in hungarian
    assert hungarian.endswith("  seki verify GAME-DIRECTORY\n")
    for name in ("records in the chain", "turn files accepted"):
        assert name not in hungarian
    assert all(columns(line) <= 80 for line in (hungarian + english).splitlines())
    rows = [line for line in hungarian.splitlines() if line.startswith("  ") and ":" in line]
    assert len({line.rindex(" ") for line in rows}) == 1  # the figures stand in one column
