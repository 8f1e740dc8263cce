"""`seki game new`: the referee creates a game directory (a git repository)."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import N_
from ..refusal import Refusal, quoted
from ..rules.state import EDITION, EDITIONS
from .common import Group, chosen_key, key_option, load_identity, read_public, said, utc_now

app = Group(help=N_("Create a game (referee)."), no_args_is_help=True)


@app.command("new")
@click.argument(
    "directory",
    type=click.Path(path_type=Path),
    help=N_("The new game directory (must not exist)."),
)
@click.option("--ishida", required=True, help=N_("Ishida player's public key line, or a file."))
@click.option("--tokugawa", required=True, help=N_("Tokugawa player's public key line, or a file."))
@key_option(
    N_(
        "Your identity, the referee's (with --two-party, your own as a player): a name in "
        "the key directory or the path of an identity file. Default: a key named referee "
        'there, else key = "NAME" in config.toml there, else the only key there.'
    )
)
@click.option("--id", "game_id", help=N_("Game id (default: the directory's name)."))
@click.option(
    "--option",
    multiple=True,
    help=N_("A game option NAME=true|false (seki docs rulings); repeatable."),
)
@click.option(
    "--rules",
    default="2016",
    help=N_(
        "The rulebook: 2016, or first-edition for the earlier web edition where "
        "it differs (seki docs rulings)."
    ),
)
@click.option(
    "--email",
    multiple=True,
    help=N_(
        "A mail address WHO=ADDRESS, WHO is ishida, tokugawa or referee; "
        "repeatable (needed by seki referee run)."
    ),
)
@click.option(
    "--lang",
    multiple=True,
    help=N_(
        "A player's language WHO=LANG (ishida=hu): the robot's mail to that player "
        "is in it; repeatable (default English)."
    ),
)
@click.option(
    "--deadline-hours", type=int, help=N_("Hours per decision; without it there are no deadlines.")
)
@click.option(
    "--reminder-hours", type=int, default=24, help=N_("Remind when this many hours are left.")
)
@click.option("--extension-hours", type=int, default=48, help=N_("Hours one extension adds."))
@click.option("--max-extensions", type=int, default=1, help=N_("Extensions allowed per decision."))
@click.option(
    "--no-move-policy",
    default="pass",
    help=N_("On a missed deadline: pass (passive choices) or forfeit."),
)
@click.option(
    "--two-party",
    is_flag=True,
    help=N_(
        "No referee: you are one of the players (--key), each side keeps its own "
        "secrets (seki docs two-party)."
    ),
)
def new(
    directory: Path,
    ishida: str,
    tokugawa: str,
    key: str | None,
    game_id: str | None,
    option: tuple[str, ...],
    rules: str,
    email: tuple[str, ...],
    lang: tuple[str, ...],
    deadline_hours: int | None,
    reminder_hours: int,
    extension_hours: int,
    max_extensions: int,
    no_move_policy: str,
    two_party: bool,
) -> None:
    """Write the signed game definition with your seed commitment, and the join requests;
    with --two-party, the game between you and the other player, and your join."""
    from ..games import NewGame, mode

    chosen = mode(two_party)
    creator = load_identity(chosen_key(key, usual=chosen.creator))
    players = {"ishida": read_public(ishida), "tokugawa": read_public(tokugawa)}
    options = _options(option, rules)
    deadlines = None
    if deadline_hours is not None:
        deadlines = {
            "hours": deadline_hours,
            "reminder_hours": reminder_hours,
            "extension_hours": extension_hours,
            "max_extensions": max_extensions,
            "policy": no_move_policy,
        }
    new_game = NewGame(
        directory,
        game_id or directory.name,
        creator,
        players,
        options,
        dict(_email(e) for e in email or []),
        dict(_language(x) for x in lang or []),
        deadlines,
    )
    said(chosen.create(new_game, utc_now()))


def _option(text: str) -> tuple[str, bool]:
    name, sep, value = text.partition("=")
    if not sep or value.lower() not in ("true", "false"):
        raise Refusal(
            N_("--option {text}: expected NAME=true or NAME=false"),
            text=quoted(text),
        )
    return name, value.lower() == "true"


def _options(option: tuple[str, ...], rules: str) -> dict:
    """The options given: each --option, and --rules as the option `edition` (written only
    when it is not the 2016 rulebook, which a game without the option follows)."""
    options: dict = dict(_option(o) for o in option or [])
    if rules not in EDITIONS:
        raise Refusal(
            N_("--rules {text}: expected one of {words}"),
            text=quoted(rules),
            words=", ".join(EDITIONS),
        )
    if rules != EDITIONS[0]:
        options[EDITION] = rules
    return options


def _language(text: str) -> tuple[str, str]:
    who, sep, code = text.partition("=")
    if not sep:
        raise Refusal(N_("--lang {text}: expected WHO=LANG, e.g. ishida=hu"), text=quoted(text))
    return who, code


def _email(text: str) -> tuple[str, str]:
    who, sep, address = text.partition("=")
    if not sep:
        raise Refusal(
            N_("--email {text}: expected WHO=ADDRESS, e.g. ishida=anna@example.org"),
            text=quoted(text),
        )
    return who, address
