"""`seki reveal` reveals with the referee key game.txt names when none is given (issue
30: the referee commands defaulted to a key named "referee", whatever the game said)."""

from __future__ import annotations

from cligame import seki, started


def test_reveal_uses_the_referee_key_the_game_names(tmp_path):
    started(tmp_path)  # the referee's key is called "ref"
    done = seki(tmp_path, "ref", "reveal", "g", "--force")
    assert done.exit_code == 0, done.output
    assert (tmp_path / "g" / "reveal.txt").is_file()
