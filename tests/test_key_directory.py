"""Where a player's keys live (issue 31): $SEKI_HOME, then $XDG_CONFIG_HOME/seki, then
~/.config/seki where an earlier version made it, else the platform's settings folder
(platformdirs), so nobody's keys move when seki is upgraded."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from sekigahara_pbem.crypto.keydir import default_dir


def test_seki_home_comes_first(tmp_path):
    env = {"SEKI_HOME": str(tmp_path / "k"), "XDG_CONFIG_HOME": str(tmp_path / "x")}
    assert default_dir(env) == tmp_path / "k"


def test_xdg_config_home_next(tmp_path):
    assert default_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "seki"


def test_an_earlier_key_directory_stays_where_it_is(tmp_path, monkeypatch):
    monkeypatch.setattr(Path, "home", lambda: tmp_path)
    (tmp_path / ".config" / "seki").mkdir(parents=True)
    assert default_dir({}) == tmp_path / ".config" / "seki"


def test_else_the_platforms_settings_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(Path, "home", lambda: tmp_path)
    want = platformdirs.user_config_path("seki", appauthor=False, roaming=True)
    assert default_dir({}) == want
