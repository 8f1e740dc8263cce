"""`seki solo`: a game against the computer in one command (play/solo.py)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click
from click.core import ParameterSource

from ..i18n import N_
from ..i18n import gettext as _
from ..play.answering import on_board
from ..refusal import ExitStatus, UsageError
from ..words import CLOSE_PAGE
from .common import ROOT_LANGUAGE, abort, lang_option, shell, tell, use_language, utc_now
from .options import bot_option, budget_option, web_option

BOTS = ("heuristic", "search", "random")
LEVELS = ("easy", "normal", "hard")  # bot.LEVELS, named here without importing the bots
DEFAULT_DIRECTORY = Path("solo")


@click.command("solo")
@click.argument(
    "directory",
    type=click.Path(path_type=Path),
    default=DEFAULT_DIRECTORY,
    help=N_("The game's own directory: made on the first run, resumed after."),
)
@click.option("--side", help=N_("Your side: ishida or tokugawa (a new game: ishida)."))
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    help=N_("The computer's strength: easy, normal (the default) or hard."),
)
@bot_option
@budget_option
@click.option(
    "--choose",
    help=N_(
        "Answer the questions from this script instead of the terminal, turn after "
        "turn (as seki play --choose)."
    ),
)
@click.option(
    "--plan",
    is_flag=True,
    help=N_(
        "Set a battle plan first (standing orders for your combat decisions), and again "
        "whenever none is on file: the battles it covers need no turn of yours."
    ),
)
@web_option
@lang_option
def solo(
    directory: Path,
    side: str | None,
    level: str | None,
    bot: str,
    budget: float,
    choose: str | None,
    plan: bool,
    web: bool | None,
    lang: str | None,
) -> None:
    """Play against the computer: the referee and the computer player run here, on real
    files in the game's own directory, and you are asked your decisions turn after turn,
    with what the computer did since your last turn; at the end the game is revealed,
    verified and its closing report shown. Run it again to resume."""
    from ..play import solo as solos
    from ..reports import names as n

    use_language(lang)
    if bot not in BOTS:
        abort(_("--bot: unknown bot '{bot}': expected heuristic, search or random").format(bot=bot))
    bot, budget = _opponent(level, bot, budget)
    if solos.exists(directory):
        game = solos.load(directory)
        solos.check_side(game, side)
        tell(_("resuming {dir}: you play {side}").format(dir=directory, side=n.side(game.side)))
    else:
        game = solos.start(directory, side or "ishida", bot, budget, utc_now())
        started = _("new game in {dir}: you play {side}")
        tell(started.format(dir=directory, side=n.side(game.side)))
    if not on_board(web, choose):
        _play(game, choose, plan)
        _close(game)
        return
    with _page(game) as page:  # one page for the whole game, turn after turn
        last = _play(game, choose, plan, page)
        closing, verified = _close(game)
        farewell = _(CLOSE_PAGE)
        page.finish([*last.splitlines(), *closing.splitlines(), verified, "", farewell])


def _page(game):  # noqa: ANN001, ANN202 - a solo game; a Board
    """The whole game's page (web/turn.py): its address said at the terminal and
    given to the browser once; each turn comes on it when the computer has played."""
    from ..reports import names as n
    from ..web.turn import Board

    title = _("Sekigahara, game {game}: you play {side} against the computer")
    return Board(
        title=title.format(game=game.definition.game_id, side=n.side(game.side)),
        on_ready=lambda url: tell(_("your game is on the board: {url}").format(url=url)),
    )


def _opponent(level: str | None, bot: str, budget: float) -> tuple[str, float]:
    """The computer player a new game gets: the level's (bot.LEVELS, normal unless
    named), or the kind --bot names, which a level cannot be given with; --budget, when
    given, is the search player's budget either way."""
    from ..bot import LEVELS as PLAYERS

    ctx = click.get_current_context()
    named = ctx.get_parameter_source("bot") is ParameterSource.COMMANDLINE
    if named and level is not None:
        raise UsageError(N_("--level and --bot both choose the computer player: give one"))
    if named:
        return bot, budget
    kind, level_budget = PLAYERS[level or "normal"]
    given = ctx.get_parameter_source("budget") is ParameterSource.COMMANDLINE
    return kind, budget if given else level_budget


def _play(game, choose: str | None, plan: bool, page=None) -> str:  # noqa: ANN001 - a Board
    """The turns, until the game is over, at the terminal or on `page`; stopping keeps
    the game to resume. With `plan`, a turn of the player's with no battle plan on file
    (rules/plans.py) begins with its questions (play/plan.py): the plan then answers the
    combat decisions it covers, each of which was a turn (issue 41: a one-block raid took
    two or three). The game's last report, said at the terminal too."""
    from ..play import console
    from ..play import solo as solos
    from ..play.answering import Answering, ask_turn
    from ..protocol.checking import signed_turn
    from ..protocol.component_files import load_components

    comp = load_components()
    if page is not None:
        ask = None
    else:
        ask = console.script(choose) if choose is not None else console.terminal()
    bot = solos.computer(game)
    last_step = None  # the report of the next decision in the same step is brief
    try:
        while (packet := solos.play_computer(game, utc_now(), click.echo, bot)) is not None:
            earlier = solos.story(game, packet.seq)
            step = tuple(packet.view.get(k) for k in ("week", "turn", "step"))
            brief, last_step = step == last_step, step
            planned = plan and packet.view["own"].get("plan") is None
            try:
                answering = Answering(game.definition, packet, comp, earlier)
                actions = ask_turn(answering, shell(), ask, plan=planned, home=game.root,
                                   brief=brief, page=page)  # fmt: skip
            except console.Stopped as stopped:
                tell(str(stopped))
                abort(_kept(game.root), ExitStatus.STOPPED)
            except KeyboardInterrupt:  # Ctrl-C at a question: interrupted (130), yet kept too
                tell(_kept(game.root))
                raise
            turn = signed_turn(game.definition, packet, actions, game.player, comp)
            solos.submit(game, packet.seq, turn, utc_now())
    finally:
        bot.close()  # a search player's second process
    last = _last_report(game, comp)
    click.echo(last)
    return last


def _last_report(game, comp) -> str:
    """The game's last report, with what the computer did since the player's last turn:
    a game the computer ended (a 9-block overrun) went straight to its closing words."""
    from ..play import solo as solos
    from ..reports import render_text

    last = game.gd.last_seq()
    packet = solos.open_packet(game, last)
    earlier = solos.story(game, last)
    return render_text(game.definition.game_id, packet, comp, guided=True, earlier=earlier)


def _kept(directory: Path) -> str:
    """Where a stopped or interrupted game stands: kept, and how to go on with it."""
    return _("the game is kept: {command} resumes it").format(command=resume_command(directory))


def resume_command(directory: Path) -> str:
    """The command that resumes this game, as the player would type it: the directory
    only if it is not the default, and the options given on this command line (--web or
    --terminal, --bot, --lang...) as given, but for a --choose script, which is spent."""
    ctx = click.get_current_context()
    words = ["seki", "solo", *([str(directory)] if directory != DEFAULT_DIRECTORY else [])]
    for param in ctx.command.params:
        given = ctx.get_parameter_source(param.name or "") is ParameterSource.COMMANDLINE
        if not given or param.name in ("directory", "choose"):
            continue
        value = ctx.params[param.name or ""]
        if isinstance(param, click.Option) and param.secondary_opts:  # --web/--terminal
            words.append(param.opts[0] if value else param.secondary_opts[0])
        else:
            words += [param.opts[0], str(value)]
    if ctx.params.get("lang") is None and ROOT_LANGUAGE:  # seki --lang xx solo
        words += ["--lang", ROOT_LANGUAGE[0]]
    return shlex.join(words)


def _close(game) -> tuple[str, str]:
    """The game is over: reveal it (once), verify the whole archive, say how it ended;
    what was said (the closing report, the verification)."""
    from ..referee.closing import solo_closing_text, statistics
    from ..referee.verify import reveal, verify

    if not game.gd.reveal.is_file():
        reveal(game.gd.root, game.referee, utc_now())
    report = verify(game.gd.root)
    stats = statistics(game.gd, game.definition)
    verified = _("verified {records} records: the archive is {dir}").format(
        records=report.records, dir=game.gd.root
    )
    closing = solo_closing_text(game.definition.game_id, stats, game.root, game.gd.reveal)
    click.echo(closing)
    tell(verified)
    return closing, verified
