"""A referee's packet answered, for `seki view`, `seki play` and `seki solo`: its report
shown and what it opens checked against the commitments kept, the turn asked at the
terminal or on the page in the browser, then signed, sealed for the referee and, with
--send, mailed. The words go out through `games.Shell`, as a two-party side's turn's."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from ..refusal import Code, ExitStatus, Refusal, UserError
from ..words import CLOSE_PAGE

if TYPE_CHECKING:
    from ..crypto.keys import Identity
    from ..games import Shell
    from ..mail.settings import MailSettings
    from ..protocol.game import Definition
    from ..protocol.packets import Packet
    from ..rules.components import Components
    from ..web.turn import Board
    from .console import Asker
    from .session import TurnSession

NOTHING_ASKED = N_("{path}: nothing is asked of you in this packet")


class CommitmentsBroken(UserError):
    """A packet that opens items the referee had not committed to: the referee's
    cheat, shown to the player (exit 3, as an archive that does not verify)."""

    exit_status = ExitStatus.NOT_VERIFIED


@dataclass(frozen=True)
class Answering:
    """A referee's packet to answer, opened, with what its report shows beside it: the
    game, its component set and the packets since the player's last turn (`earlier`)."""

    definition: Definition
    opened: Packet
    comp: Components
    earlier: Sequence[Packet] = ()


def ask_turn(
    answering: Answering,
    shell: Shell,
    ask: Asker | None,
    html: Path | None = None,
    plan: bool = False,
    home: Path | None = None,
    brief: bool = False,
    page: Board | None = None,
) -> list[dict]:
    """One turn asked of the player: the packet's report with the story since its last
    turn, then the decision question by question on a shadow of the game
    (rules/shadow.py), at the terminal (`ask`) or on `page`, the page in the browser
    (web/), until the player confirms the whole turn; the actions ([] when nothing is
    asked). `home`: where the packets' commitments are kept (`show`); `brief`: the
    report without the situation and the map (the last one had them)."""
    from ..reports import render_text
    from ..rules.shadow import shadow_state
    from . import console
    from .session import TurnSession

    definition, opened, comp = answering.definition, answering.opened, answering.comp
    report = render_text(
        definition.game_id, opened, comp, guided=True, earlier=list(answering.earlier),
        brief=brief,
    )  # fmt: skip
    show(answering, report, shell, html, home)
    shadow = shadow_state(comp, opened.view, definition.options)
    session = TurnSession(shadow, comp, opened.side, plan=plan)
    if session.question is None:
        return []
    if page is not None:
        _on_the_board(answering, session, page)
        return session.actions
    assert ask is not None  # without a page, the callers give the terminal or a script
    console.run(session, comp, opened.view, ask, shell.show)
    while not console.confirm(session, comp, opened.view, ask, shell.show):
        console.run(session, comp, opened.view, ask, shell.show)
    return session.actions


def on_board(web: bool | None, choose: str | None) -> bool:
    """Whether the turn is answered on the page: --web/--terminal, else the key
    directory's `board` setting (preferences.py); a --choose script is the terminal's."""
    from ..crypto.keystore import default_dir
    from ..preferences import board

    if choose is not None:
        return False
    return web if web is not None else board(default_dir()) == "web"


def _on_the_board(answering: Answering, session: TurnSession, page: Board) -> None:
    """The turn on the page: the session answered by clicks (web/turn.py), with the story
    since the last turn (the packet's own events last) drawn on its map and listed, and
    the packet's report one click away."""
    from ..reports import render_html
    from ..web.moment import story

    definition, opened, comp = answering.definition, answering.opened, answering.comp
    earlier = list(answering.earlier)
    report = render_html(definition.game_id, opened, comp, definition.options, earlier)
    told = [(p.seq, p.events) for p in [*earlier, opened]]
    page.answer(session, opened.view, story=story(told, comp, opened.view), report_html=report)


@dataclass(frozen=True)
class Signing:
    """What signing a refereed game's turn needs besides its actions: the game, the packet
    answered, the player's key, where the file goes and, with --send, the mail settings."""

    definition: Definition
    opened: Packet
    identity: Identity
    comp: Components
    out: Path | None
    mail: MailSettings | None

    @property
    def path(self) -> Path:
        """The turn file's name: --out, else one named for the game, packet and side."""
        opened = self.opened
        name = f"turn-{self.definition.game_id}-{opened.seq}-{opened.side}.signed.txt"
        return self.out or Path(name)

    @property
    def subject(self) -> str:
        """The mail's subject (the referee's robot reads the file, not the subject)."""
        return f"{self.opened.side}: answer to packet {self.opened.seq}"

    def sign(self, actions: list[dict], say: Callable[[str], None]) -> None:
        """The confirmed turn checked as `seki turn check` would, signed and sealed for
        the referee into a new file; the packet remembered as answered (so the next run
        finds the next one); the file mailed to the referee with --send, else left to
        mail. Each outcome is said, in words, with `say`."""
        from ..protocol.checking import signed_turn
        from ..protocol.store import write_new
        from . import inbox, mailbox

        definition, opened, path = self.definition, self.opened, self.path
        write_new(path, signed_turn(definition, opened, actions, self.identity, self.comp))
        inbox.remember(definition.game_id, opened.seq)
        if self.mail is None:
            say(_("wrote {path}: mail it to the referee").format(path=path))
            return
        say(_("wrote {path}").format(path=path))
        say(mailbox.send(self.mail, definition, path, self.subject))


def on_one_page(
    signing: Signing, earlier: list[Packet], html: Path | None, plan: bool, packet: Path,
    shell: Shell,
) -> None:  # fmt: skip
    """The turn answered on the page, which stays after Sign (issue 41): it waits while
    seki signs, seals and (--send) mails the file, then says where the file is and what
    became of it; a file left to mail comes with a link that starts the player's own mail
    client, addressed to the referee where the game names one."""
    from ..reports.text import title
    from ..web.turn import Board

    definition, opened = signing.definition, signing.opened

    def ready(url: str) -> None:
        shell.tell(_("your turn is on the board: {url}").format(url=url))

    heading = title(definition.game_id, opened.seq, opened.side)
    answering = Answering(definition, opened, signing.comp, earlier)
    with Board(title=heading, on_ready=ready) as page:
        actions = ask_turn(answering, shell, None, html, plan, page=page)
        said: list[str] = []
        if not actions:
            page.finish([_(NOTHING_ASKED).format(path=packet)])
            raise Refusal(NOTHING_ASKED, code=Code.NOT_ASKED, path=packet)

        def say(line: str) -> None:
            shell.tell(line)
            said.append(line)

        try:
            signing.sign(actions, say)
        except Refusal as exc:
            page.finish([*said, explain(exc)])
            raise
        where = _("Your turn file, signed and sealed for the referee: {path}")
        closing = [where.format(path=signing.path.resolve()), *said, "", _(CLOSE_PAGE)]
        page.finish(closing, None if signing.mail else _mail_link(signing))


def _mail_link(signing: Signing) -> tuple[str, str]:
    """The player's own mail client, for the turn file, to the referee's address where
    game.txt names one."""
    from .mailbox import mail_link

    to = (signing.definition.addresses or {}).get("referee", "")
    words = _("Write the mail to the referee (attach the file)")
    return mail_link(to, signing.definition.game_id, signing.subject, signing.path, words)


def show(
    answering: Answering, text: str, shell: Shell, html: Path | None = None,
    home: Path | None = None,
) -> None:  # fmt: skip
    """Show a packet's report (and write its page), then check what it opens, and what
    each of the packets told in it before (`answering.earlier`) opened, in order, telling
    how: a packet that opens items the referee had not committed to stops here
    (CommitmentsBroken). `home`: the key directory where the commitments are kept
    (default: the player's)."""
    from ..protocol.store import write_atomic
    from ..reports import render_html

    definition, opened, earlier = answering.definition, answering.opened, answering.earlier
    if html is not None:
        page = render_html(
            definition.game_id, opened, answering.comp, definition.options, list(earlier)
        )
        write_atomic(html, page)
    shell.show(text.removesuffix("\n"))
    if html is not None:
        shell.tell(_("wrote {path} (open it in any browser)").format(path=html))
    for packet in [*earlier, opened]:
        ok, message = check_openings(definition.game_id, packet, home)
        if not ok or packet is opened:
            shell.tell(message)
        if not ok:
            raise CommitmentsBroken(N_("this packet opens items the referee had not committed to"))


def check_openings(game_id: str, packet, home: Path | None = None) -> tuple[bool, str]:
    """Check what this packet opens against the commitments of the packet before it (if
    you have viewed it), and remember this packet's commitments for the next one, in the
    key directory `home` (default: the player's)."""
    from ..crypto.keystore import default_dir
    from ..protocol.commitments import check_opening
    from ..protocol.store import write_atomic

    path = (home or default_dir()) / "games" / f"{game_id}.roots.json"
    roots = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if packet.root:
        roots[str(packet.seq)] = packet.root
        write_atomic(path, json.dumps(roots, sort_keys=True))
    if not packet.openings:
        return True, _("commitments: nothing opened in this packet")
    previous = roots.get(str(packet.seq - 1))
    if previous is None:
        text = ngettext(
            "commitments: {n} opening not checked: view packet {seq} first",
            "commitments: {n} openings not checked: view packet {seq} first",
            len(packet.openings),
        )
        return True, text.format(n=len(packet.openings), seq=packet.seq - 1)
    bad = [o["value"] for o in packet.openings if not check_opening(o, previous)]
    if bad:
        text = _("COMMITMENTS BROKEN: {items} were not committed in packet {seq}")
        return False, text.format(items=bad, seq=packet.seq - 1)
    text = ngettext(
        "commitments: the {n} item shown here was committed in packet {seq}",
        "commitments: all {n} items shown here were committed in packet {seq}",
        len(packet.openings),
    )
    return True, text.format(n=len(packet.openings), seq=packet.seq - 1)
