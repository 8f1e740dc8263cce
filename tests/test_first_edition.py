"""The earlier rulebook as a named option set (issue 27): `seki game new --rules
first-edition` records `edition: first-edition` in game.txt for a referee's game and a
two-party one; setup, positions and game.txt accept the same option values and refuse the
same others; a game without the option (every game archived before it) follows 2016 and
its state does not name it. What the option changes in play is in the scenarios
tests/scenarios/7_3_1_first_edition_*.yaml; docs/rulings.md lists every difference."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sekigahara_pbem.cli import app
from sekigahara_pbem.protocol import game
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.state import DEFAULT_OPTIONS, EDITION, FIRST_EDITION, game_options
from sekigahara_pbem.rules.vocab import Malformed

SEED = "00" * 16


def _seki(root: Path, who: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(args), env={"SEKI_HOME": str(root / who)})
    assert result.exit_code == code, (args, result.output)
    assert "Traceback" not in result.output
    return result.output


@pytest.fixture
def keys(tmp_path: Path) -> tuple[str, ...]:
    for name in ("ref", "alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(_seki(tmp_path, name, "keys", "new", name))
    return ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))


def test_game_new_records_the_first_edition_for_a_referee_and_it_reaches_setup(tmp_path, keys):
    _seki(tmp_path, "ref", "game", "new", str(tmp_path / "g"), "--key", "ref", "--rules",
          "first-edition", *keys)  # fmt: skip
    text = (tmp_path / "g" / "game.txt").read_text()
    definition = game.parse(text, "game.txt")
    assert definition.options == {**DEFAULT_OPTIONS, EDITION: FIRST_EDITION}
    state, _ = setup(load_components(), SEED, definition.options)
    assert state["options"][EDITION] == FIRST_EDITION


def test_game_new_records_the_first_edition_for_a_two_party_game(tmp_path, keys):
    _seki(tmp_path, "alice", "game", "new", str(tmp_path / "g"), "--two-party", "--key",
          "alice", "--rules", "first-edition", *keys)  # fmt: skip
    assert "  edition: first-edition\n" in (tmp_path / "g" / "game.txt").read_text()


def test_the_2016_rulebook_is_the_default_and_is_not_written(tmp_path, keys):
    """A game made without --rules, or with --rules 2016, reads like one made before the
    option existed: game.txt and the state have no `edition`."""
    for name, extra in (("a", ()), ("b", ("--rules", "2016"))):
        _seki(tmp_path, "ref", "game", "new", str(tmp_path / name), "--key", "ref", *extra, *keys)
        definition = game.parse((tmp_path / name / "game.txt").read_text(), "game.txt")
        assert definition.options == DEFAULT_OPTIONS
    state, _ = setup(load_components(), SEED, {EDITION: "2016"})
    assert state["options"] == DEFAULT_OPTIONS


def test_game_new_refuses_an_unknown_edition_in_one_line(tmp_path, keys):
    said = _seki(tmp_path, "ref", "game", "new", str(tmp_path / "g"), "--key", "ref", "--rules",
                 "1999", *keys, code=1)  # fmt: skip
    assert "--rules '1999': expected one of 2016, first-edition" in said
    said = _seki(tmp_path, "alice", "game", "new", str(tmp_path / "h"), "--two-party", "--key",
                 "alice", "--option", "edition=true", *keys, code=1)  # fmt: skip
    assert "options.edition: expected one of 2016, first-edition" in said
    assert not (tmp_path / "g").exists() and not (tmp_path / "h").exists()


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({EDITION: "first"}, "options.edition"),
        ({EDITION: True}, "options.edition"),
        ({"overrun_loss_cards": "yes"}, "options.overrun_loss_cards"),
        ({"fog_of_war": True}, "options.fog_of_war"),
    ],
)
def test_setup_and_positions_refuse_the_same_option_values(given, field):
    with pytest.raises(Malformed) as refused:
        game_options(given)
    assert refused.value.field == field
    with pytest.raises(Malformed):
        setup(load_components(), SEED, given)
    spec = {"first": "ishida", "options": given}
    with pytest.raises(Malformed) as refused:
        build_position(load_components(), spec)
    assert refused.value.field == "position." + field
