"""`seki referee run`: the referee as a mail robot, one pass suitable for cron.

fetch new mail → read each message's seki documents and adjudicate them in their games →
apply missed deadlines → queue the mail the new records call for (packets, reminders,
takeback requests, invitations, polite replies to mail that could not be used) → send.

What was mailed is remembered in the spool (mailed.json), and every queued message has a
stable name, so a pass that is interrupted and run again sends nothing twice.

The robot is the engine's mail shell: the public report a packet's mail carries is the
presentation layer's, handed in by the caller (`public_report`: reports.mail_report), so
that pbem does not import reports; the words both show are in words.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from .. import i18n, words
from ..crypto import signing
from ..crypto.keys import Identity, PublicKey
from ..i18n import gettext as _
from ..i18n import ngettext
from ..protocol import chain, notes, turns
from ..protocol import clock as clocks
from ..protocol import documents as docs
from ..protocol.game import Definition, open_secrets
from ..protocol.game import load as load_definition
from ..protocol.store import GameDir, write_atomic
from ..referee import adjudication as referee
from ..referee.closing import closing_text, statistics
from ..referee.verify import reveal
from ..refusal import N_, Code, Refusal, quoted
from ..rules.components import Components
from ..rules.views import view
from ..rules.vocab import SIDES, other
from . import incoming as mail_in
from .outgoing import Delivery, Spool, message, send_outbox
from .settings import MailSettings

NOTICE_EVENTS = ("deadline_missed", "takeback", "extension", "game_over")

# (game id, seq, public view, the public events since the side's last mail, components,
# the attached packet's file name) -> the mail body's public report, ending with where the
# recipient's secrets are (reports.mail_report)
PublicReport = Callable[[str, int, dict, list, Components, str], str]


@dataclass
class RunReport:
    fetched: int = 0
    accepted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    deadlines: list[str] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)
    quarantined: list[str] = field(default_factory=list)  # messages set aside, with why
    errors: list[str] = field(default_factory=list)  # bugs met on one message or game
    delivery: Delivery | None = None


@dataclass
class Games:
    """The games this robot runs, by id."""

    roots: dict[str, Path]
    definitions: dict[str, Definition]

    @classmethod
    def load(cls, dirs: list[Path]) -> Games:
        roots, definitions = {}, {}
        for root in dirs:
            definition = load_definition(GameDir(root))
            if definition.game_id in roots:
                raise Refusal(
                    N_("game {game} is given twice"), at=str(root), game=definition.game_id
                )
            roots[definition.game_id] = root
            definitions[definition.game_id] = definition
        return cls(roots, definitions)

    def players(self) -> set[str]:
        """The players' addresses in game.txt: the only ones the robot answers, whatever a
        mail's subject says (a From or Reply-To is the sender's word, so a stranger's mail
        naming a player's address is answered to that player, never to the stranger)."""
        return {
            a.lower()
            for d in self.definitions.values()
            for side, a in (d.addresses or {}).items()
            if side in SIDES
        }

    def language_of(self, address: str) -> str:
        """The language of the player at this address (the first game naming one)."""
        for d in self.definitions.values():
            for side, a in (d.addresses or {}).items():
                if a.lower() == address.lower() and side in (d.languages or {}):
                    return language(d, side)
        return i18n.DEFAULT


def language(definition: Definition, side: str) -> str:
    """The language of a side's mail, from game.txt (English if it names none, or one
    this copy of seki does not ship)."""
    lang = (definition.languages or {}).get(side, i18n.DEFAULT)
    return lang if lang in i18n.available() else i18n.DEFAULT


def read_inbox(spool: Spool, games: Games, ref: Identity, settings: MailSettings, now: str,
               report: RunReport) -> None:  # fmt: skip
    """Adjudicate every document of every message in the inbox, oldest first. A message
    that cannot be read, or that meets a bug, is set aside in `quarantine/` with the
    reason and the pass goes on: one message never stops the others, nor other games."""
    for path in sorted(spool.folder("inbox").glob("*.eml")):  # in the order of arrival
        raw = path.read_bytes()
        try:
            if len(raw) > mail_in.MAX_MESSAGE:
                _too_large(spool, games, settings, path.stem, len(raw), raw, report)
            else:
                msg = mail_in.parse(raw)
                _read_message(spool, games, ref, settings, now, path.stem, msg, report)
        except mail_in.HostileMail as exc:
            _quarantine(spool, path, str(exc), report.quarantined)
            continue
        except Exception as exc:  # noqa: BLE001 - a bug: this message only, reported
            _quarantine(spool, path, f"internal error: {type(exc).__name__}: {exc}", report.errors)
            continue
        path.replace(spool.folder("processed") / path.name)


def _quarantine(spool: Spool, path: Path, reason: str, where: list[str]) -> None:
    folder = spool.folder("quarantine")
    folder.mkdir(exist_ok=True)
    path.replace(folder / path.name)
    write_atomic(folder / f"{path.stem}.reason", reason + "\n")
    where.append(f"{path.name}: {reason}")


def _too_large(spool: Spool, games: Games, settings: MailSettings, name: str, size: int,
               raw: bytes, report: RunReport) -> None:  # fmt: skip
    """A message beyond MAX_MESSAGE is kept unread; its sender, if a player, is told so
    in a line (read from its header alone), as any other mail is answered."""
    report.ignored.append(f"{name}.eml: larger than {mail_in.MAX_MESSAGE} bytes")
    answer = Answer(
        public=[
            Refusal(
                N_(
                    "your mail is {size} MB, more than the {limit} MB the referee's robot "
                    "reads, so nothing in it was read: send the signed file alone, attached"
                ),
                code=Code.TOO_LARGE,
                size=round(size / 1_000_000, 1),
                limit=round(mail_in.MAX_MESSAGE / 1_000_000, 1),
            )
        ]
    )
    _reply(spool, games, None, settings, name, mail_in.parse_head(raw), answer, report)


@dataclass
class Answer:
    """What one mail's reply says: the files taken (each a line: what it did), the ones
    already taken before, and what could not be used (public: reasons anyone may read;
    refusals: by game, the signer and the reason, for a sealed note)."""

    taken: list[tuple[str, int | None, str, bool]] = field(default_factory=list)
    again: list[tuple[str, int]] = field(default_factory=list)  # (game, record; 0: none)
    public: list[Exception] = field(default_factory=list)
    refusals: dict[str, list[tuple[str | None, Refusal]]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.taken or self.again or self.public or self.refusals)


def _trusted(games: Games) -> list[PublicKey]:
    """Every key of every game the robot runs: a document's reading is the one one of
    them checks (incoming.pick)."""
    return [k for d in games.definitions.values() for k in (d.referee, *d.players.values())]


def _own(games: Games, key: PublicKey | None) -> bool:
    """Whether a key is a referee's: the robot's own packets, quoted back in a reply."""
    return key is not None and any(
        d.referee.key_id == key.key_id for d in games.definitions.values()
    )


def _chosen(games: Games, msg: EmailMessage) -> list[tuple[str, str | None]]:
    """The documents of a message to adjudicate, each once, with where the sender put it
    (incoming.Found.origin): of each its reading the signature checks (or, if none does,
    as it came, for the referee to refuse); a copy of one already chosen (the HTML
    part's, a second paste) and the referee's own documents quoted back dropped."""
    trusted = _trusted(games)
    chosen: dict[str, tuple[str, str | None, bool]] = {}  # signature -> (text, origin, verified)
    for document in mail_in.found(msg):
        text, key = mail_in.pick(document, trusted)
        if _own(games, key):
            continue
        same = mail_in.signature_of(text)
        if same not in chosen or (key is not None and not chosen[same][2]):
            chosen[same] = (text, document.origin, key is not None)
    return [(text, origin) for text, origin, _ in chosen.values()][: mail_in.MAX_DOCUMENTS]


def _read_message(spool, games: Games, ref, settings, now, name, msg: EmailMessage, report):
    """Adjudicate each document of a message; each is named, in what is said of it, as
    its sender knows it: the attachment's file name, or the message body (in the
    sender's language)."""
    found = _chosen(games, msg)
    answer = Answer()
    with i18n.using(games.language_of(mail_in.sender(msg))):
        body = _("the message body")
    for text, origin in found:
        label = origin or body
        try:
            game_id = docs.peek_game(text, label)
        except Refusal as exc:
            answer.public.append(exc)
            continue
        if game_id not in games.roots:
            answer.public.append(
                Refusal(
                    N_("game {game} is not run by this referee"),
                    code=Code.WRONG_GAME,
                    at=label,
                    game=quoted(game_id),
                )
            )
            continue
        root = games.roots[game_id]
        before = accepted_before(root, games.definitions[game_id], ref, text)
        if before is not None:
            report.ignored.append(f"{name}: {game_id}: already in (record {before})")
            answer.again.append((game_id, before))
            continue
        last = GameDir(root).last_seq()
        for outcome in referee.adjudicate(root, ref, [(label, text.encode())], now, mailing=True):
            target = report.accepted if outcome.accepted else report.refused
            target.append(f"{game_id}: {outcome.message}")
            if outcome.refusal is not None:
                signer = notes.addressee(games.definitions[game_id], text)
                answer.refusals.setdefault(game_id, []).append((signer, outcome.refusal))
            elif outcome.accepted:
                seq = GameDir(root).last_seq()
                turn = f"format: {turns.TURN_FORMAT}" in text or turns.is_sealed(text)
                answer.taken.append((game_id, seq if seq > last else None, outcome.message, turn))
    if not found:
        answer.public.append(
            Refusal(
                N_(
                    "no seki document was found in your mail (attach the signed turn file, or "
                    "paste it whole, from -----BEGIN SEKI DOCUMENT----- to "
                    "-----END SEKI SIGNATURE-----)"
                )
            )
        )
    if answer:
        _reply(spool, games, ref, settings, name, msg, answer, report)


def accepted_before(root: Path, definition: Definition, ref: Identity, text: str) -> int | None:
    """The record that took this very document (the same body and signature, however the
    mail laid it out) before, 0 for a join, a seed or a takeback's request or answer (no
    record of their own); None if it is new. A player whose client sends a mail twice,
    or who sends it again not knowing it arrived, is told it is in, not refused."""
    same = signing.split(text)
    gd = GameDir(root)
    kept = [gd.join(s) for s in SIDES] + [gd.seed(s) for s in SIDES]
    kept += sorted((root / "requests").glob("*.txt")) if (root / "requests").is_dir() else []
    if any(path.is_file() and signing.split(docs.read_capped(path)) == same for path in kept):
        return 0
    lines = same[0].splitlines()
    side = next((x[6:] for x in lines if x.startswith("side: ")), None)
    answers = next((x for x in lines if x.startswith("answers: ")), None)
    if side not in SIDES or answers is None or not (root / "turns").is_dir():
        return None
    key = None
    for path in sorted((root / "turns").glob(f"*-{side}.txt"), reverse=True):
        stored = docs.read_capped(path)
        if answers not in signing.split(stored)[0].splitlines():
            continue  # only a file answering the same packet is opened
        if signing.split(stored) == same:
            return int(path.name[:6])
        if turns.is_sealed(stored) and not turns.is_sealed(text):  # sealed at rest
            key = key or open_secrets(gd, definition, ref).state_key
            inner = turns.unseal(definition, stored, key, path.name, archived=True)
            if signing.split(inner) == same:
                return int(path.name[:6])
    return None


def _reply(spool, games: Games, ref, settings, name, msg, answer: Answer, report) -> None:
    """One answer to each mail from a player: what it took (a receipt for each file, with
    who decides next), what it had taken before, and what it could not use; never to
    robots or strangers. Its body travels in the clear, so the referee's reasons go in a
    note sealed to the side that signed the refused file (protocol/notes.py), attached
    only where that side's own address is the one answered: a file forwarded by another
    (the opponent, a stranger) gets a reply that says only that it was refused, as a file
    no player signed does."""
    who = mail_in.sender(msg)
    subject = mail_in.header(msg, "Subject")
    if mail_in.automatic(msg) or who.lower() not in games.players():  # never a stranger
        reasons: Sequence[Exception | str] = (
            answer.public or [f"a file for {g} was refused" for g in answer.refusals]
            or [f"{g}: {m}" for g, _, m, _ in answer.taken] or ["already in"])  # fmt: skip
        first = reasons[0]
        report.ignored.append(f"{name}: from {who or 'nobody'}: not answered ({first})")
        return
    with i18n.using(games.language_of(who)):
        reply = _reply_message(games, ref, settings, msg, who, subject, answer)
    if spool.queue(f"reply-{name}", reply):
        report.queued.append(f"reply-{name}")


def _receipt(games: Games, game_id: str, seq: int | None, message: str, turn: bool) -> str:
    """A line saying what a file did, in the reader's language: its record and who is
    asked next, read from the record (public: the label and the sides asked)."""
    if seq is None:
        return f"  - {game_id}: {message}"
    definition = games.definitions[game_id]
    body = chain.read_record(GameDir(games.roots[game_id]), definition, seq).body
    asked = ", ".join(words.side(s) for s in SIDES if s in body["asked"])
    after = asked if body["pending"] else _("nobody: the game is over")
    text = (
        _("record {seq}: your turn is in ({label}); next: {next}")
        if turn
        else _("record {seq}: your file is in ({label}); next: {next}")
    )
    return f"  - {game_id}: " + text.format(seq=seq, label=body["label"], next=after or "-")


def _reply_message(games: Games, ref, settings, msg, who, subject, answer: Answer):
    taken = [_receipt(games, *t) for t in answer.taken]
    for game_id, seq in answer.again:
        text = _("already in (record {seq}): this file was taken before; nothing to do")
        if seq == 0:
            text = _("already in: this file was taken before; nothing to do")
        taken.append(f"  - {game_id}: " + text.format(seq=seq))
    lines = [f"  - {i18n.explain(p)}" for p in answer.public]
    attached = []
    for game_id, refused in answer.refusals.items():
        definition = games.definitions[game_id]
        addresses = definition.addresses or {}
        signed: dict[str, list[Refusal]] = {}  # side -> its own files' reasons
        for side, reason in refused:
            if side is not None and addresses.get(side, "").lower() == who.lower():
                signed.setdefault(side, []).append(reason)
            else:
                lines.append("  - " + _("a file for game {game} was refused").format(game=game_id))
        for side, reasons in signed.items():
            seq = GameDir(games.roots[game_id]).last_seq()
            note = f"note-{game_id}-{seq}-{side}.txt"
            words_ = [i18n.explain(r) for r in reasons]  # for the signer's eyes alone
            attached.append((note, notes.build(definition, ref, side, seq, words_)))
            text = ngettext(
                "{n} file for game {game} refused: the reason is in the attached sealed "
                "note, for your eyes only: seki view {note} --key YOUR-KEY",
                "{n} files for game {game} refused: the reasons are in the attached sealed "
                "note, for your eyes only: seki view {note} --key YOUR-KEY",
                len(reasons),
            )
            lines.append("  - " + text.format(n=len(reasons), game=game_id, note=note))
    body = [_("Hello,"), ""]
    if taken:
        body += [_("thank you for your mail. The referee's robot took:"), "", *taken, ""]
        if lines:
            body += [_("It could not use:"), "", *lines, ""]
    else:
        body += [
            _("thank you for your mail. The referee's robot could not use it:"),
            "",
            *lines,
            "",
        ]
    if lines:
        body += [
            _("Nothing in the game has changed. Please fix the file and send it again;")
            if not taken
            else _("Nothing else has changed. Please fix that file and send it again;"),
            _("`seki turn check` shows problems before you sign and mail a file."),
            "",
        ]
    body.append(_("-- the seki referee robot"))
    return message(
        settings.sender, who, _answering(subject) or _("Your mail to the referee"),
        "\n".join(body), attached, in_reply_to=mail_in.message_id(msg), automatic="auto-replied",
    )  # fmt: skip


def _answering(subject: str) -> str:
    """The subject of a reply: the mail's, with one "Re: " (none added where it has one,
    in any case)."""
    return subject if not subject or subject[:3].lower() == "re:" else "Re: " + subject


class Mailer:
    """Queues the mail one game's new records and open requests call for."""

    def __init__(
        self,
        spool: Spool,
        root: Path,
        ref: Identity,
        settings: MailSettings,
        now: str,
        public_report: PublicReport,
    ):
        self.spool, self.settings, self.now = spool, settings, now
        self.public_report = public_report
        self.game = referee.open_game(root, ref)
        self.definition = self.game.definition
        self.gd = self.game.gd
        self.id = self.definition.game_id
        self.addresses = self.definition.addresses or {}
        self.state_path = spool.root / "mailed.json"

    def run(self) -> list[str]:
        if not all(self.addresses.get(s) for s in SIDES):
            raise Refusal(N_("game.txt has no mail address for every side"), at=f"game {self.id}")
        mailed = _read_json(self.state_path)
        done = mailed.setdefault(self.id, {s: 0 for s in SIDES})
        queued = []
        last = self.gd.last_seq()
        if last == 0:
            queued += self._invitations() + self._seed_calls()
        for seq in range(min(done.values()) + 1, last + 1):
            record = chain.read_record(self.gd, self.definition, seq)
            for side in SIDES:
                if done[side] < seq and self._calls_for_mail(record, side, last):
                    with i18n.using(language(self.definition, side)):
                        queued += self._packets(side, done[side] + 1, record)
                    done[side] = seq
        queued += self._reminders(last)
        queued += self._takeback_notices(last)
        queued += self._closing(last)
        write_atomic(self.state_path, json.dumps(mailed, indent=1, sort_keys=True))
        return queued

    def _calls_for_mail(self, record: chain.Record, side: str, last: int) -> bool:
        body = record.body
        return (
            body["asked"].get(side) == record.seq
            or any(e.get("type") in NOTICE_EVENTS for e in body["events"])
            or (record.seq == last and not body["pending"])
        )

    def _queue(self, name: str, msg: EmailMessage) -> list[str]:
        return [name] if self.spool.queue(name, msg) else []

    def _packets(self, side: str, first: int, record: chain.Record) -> list[str]:
        seq = record.seq
        attachments, events = [], []
        for s in range(first, seq + 1):
            attachments.append(
                (f"packet-{self.id}-{s}-{side}.txt", docs.read_capped(self.gd.packet(s, side)))
            )
            events += chain.read_record(self.gd, self.definition, s).body["events"]
        state = referee.state_at(self.game, seq)
        comp = self.game.comp
        shown = view(state, comp, None)
        report = self.public_report(self.id, seq, shown, events, comp, attachments[-1][0])
        asked = record.body["asked"].get(side)
        lines = [report.rstrip("\n"), ""]
        if asked is not None:
            lines += self._deadline_lines(record, side)
            text = _(
                "Answer with a signed turn file (seki turn new {packet} --key YOUR-KEY; then "
                "seki turn check and seki turn sign) attached to a reply."
            )
            lines.append(text.format(packet=attachments[-1][0]))
        what = _("your move") if asked is not None else _("for your information")
        if not record.body["pending"]:
            what = _("the game is over")
        text = _("record {seq}: {label} — {what}")
        subject = f"[seki {self.id}] " + text.format(seq=seq, label=record.body["label"], what=what)
        msg = message(self.settings.sender, self.addresses[side], subject, "\n".join(lines),
                      attachments)  # fmt: skip
        return self._queue(f"{self.id}-{seq:06d}-{side}", msg)

    def _deadline_lines(self, record: chain.Record, side: str) -> list[str]:
        entry = record.body.get("clock", {}).get(side)
        settings = self.definition.deadlines
        if entry is None or settings is None:
            return []
        left = clocks.time_left(entry["due"], self.now)
        text = _(
            "Your deadline: {due} ({left}); then the game applies the '{policy}' policy for you."
        )
        lines = [text.format(due=entry["due"], left=left, policy=settings.policy)]
        if entry["extensions"] < settings.max_extensions:
            text = _(
                "Need more time? seki turn extension PACKET --key YOUR-KEY gives {hours} h more."
            )
            lines.append(text.format(hours=settings.extension_hours))
        return lines

    def _reminders(self, last: int) -> list[str]:
        settings = self.definition.deadlines
        if settings is None or last == 0:
            return []
        record = chain.read_record(self.gd, self.definition, last)
        clock = record.body.get("clock", {})
        queued = []
        for side in clocks.reminder_due(settings, clock, self.now):
            asked = record.body["asked"][side]
            entry = clock[side]
            left = clocks.time_left(entry["due"], self.now)
            name = f"{self.id}-reminder-{asked:06d}-{side}-{entry['extensions']}"
            packet = (
                f"packet-{self.id}-{last}-{side}.txt",
                docs.read_capped(self.gd.packet(last, side)),
            )
            with i18n.using(language(self.definition, side)):
                body = _(
                    "A reminder: game {game} waits for your decision since packet {seq}.\n"
                    "Your deadline is {due} ({left}); after it the game applies the '{policy}' "
                    "policy for you.\nThe latest packet is attached again.\n"
                ).format(game=self.id, seq=asked, due=entry["due"], left=left,
                         policy=settings.policy)  # fmt: skip
                subject = _("reminder: your move is due {due}").format(due=entry["due"])
            msg = message(self.settings.sender, self.addresses[side],
                          f"[seki {self.id}] {subject}", body, [packet])  # fmt: skip
            queued += self._queue(name, msg)
        return queued

    def _takeback_notices(self, last: int) -> list[str]:
        queued = []
        for side in SIDES:
            request = self.gd.request(last, "takeback", side)
            if not request.is_file():
                continue
            answer = self.gd.request(last, "consent", other(side))
            if not answer.is_file():
                with i18n.using(language(self.definition, other(side))):
                    body = _(
                        "{side} asks to take back record {seq} of game {game} (the request is "
                        "attached).\nTo answer: seki takeback answer {request} --accept (or "
                        "--refuse) --key YOUR-KEY, and mail the signed answer back.\n"
                    ).format(side=side, seq=last, game=self.id, request=request.name)
                    subject = _("takeback of record {seq} requested by {side}")
                    subject = subject.format(seq=last, side=side)
                msg = message(self.settings.sender, self.addresses[other(side)],
                              f"[seki {self.id}] {subject}",
                              body, [(request.name, docs.read_capped(request))])  # fmt: skip
                queued += self._queue(f"{self.id}-takeback-{last:06d}-{side}", msg)
            elif "answer: refuse" in docs.read_capped(answer).splitlines():
                with i18n.using(language(self.definition, side)):
                    subject = _("takeback of record {seq} refused").format(seq=last)
                    body = _("{side} refused to take back record {seq}; play goes on.\n")
                    body = body.format(side=other(side), seq=last)
                msg = message(
                    self.settings.sender, self.addresses[side], f"[seki {self.id}] {subject}", body
                )
                queued += self._queue(f"{self.id}-takeback-refused-{last:06d}", msg)
        return queued

    def _closing(self, last: int) -> list[str]:
        """Once the game is over: the reveal, then the closing report to both players."""
        if last == 0 or chain.read_record(self.gd, self.definition, last).body["pending"]:
            return []
        if not self.gd.reveal.is_file():
            reveal(self.gd.root, self.game.referee, self.now)
        stats = statistics(self.gd, self.definition)
        queued = []
        for side in SIDES:
            with i18n.using(language(self.definition, side)):
                subject = _("the game is over: closing report")
                text = closing_text(self.id, stats)  # in the player's language
            msg = message(self.settings.sender, self.addresses[side],
                          f"[seki {self.id}] {subject}", text,
                          [("reveal.txt", docs.read_capped(self.gd.reveal))])  # fmt: skip
            queued += self._queue(f"{self.id}-closing-{side}", msg)
        return queued

    def _invitations(self) -> list[str]:
        queued = []
        for side in SIDES:
            if self.gd.join(side).is_file():
                continue
            with i18n.using(language(self.definition, side)):
                body = _(
                    "You are invited to play {side} in game {game}. The game definition is "
                    "attached: check its fingerprints, then\n  seki join game.txt --key "
                    "YOUR-KEY\nand reply with the join file it writes attached.\n"
                ).format(side=words.side(side), game=self.id)
                subject = _("invitation to play {side}").format(side=words.side(side))
            msg = message(self.settings.sender, self.addresses[side],
                          f"[seki {self.id}] {subject}", body,
                          [("game.txt", docs.read_capped(self.gd.definition))])  # fmt: skip
            queued += self._queue(f"{self.id}-invite-{side}", msg)
        return queued

    def _seed_calls(self) -> list[str]:
        """Once both sides have joined, each is sent the other's join and asked for its
        seed (protocol/joins.py: no seed is sent before every commitment is in)."""
        if not all(self.gd.join(s).is_file() for s in SIDES):
            return []
        queued = []
        for side in SIDES:
            if self.gd.seed(side).is_file():
                continue
            name = f"join-{self.id}-{other(side)}.txt"
            with i18n.using(language(self.definition, side)):
                body = _(
                    "Both sides have joined game {game}. To start it, answer {other}'s join "
                    "(attached) with your seed:\n  seki join {file} --key YOUR-KEY\nand reply "
                    "with the seed file it writes attached. Your seed is sealed to the "
                    "referee; the game is set up when both seeds are in.\n"
                ).format(game=self.id, other=words.side(other(side)), file=name)
                subject = _("both sides have joined: send your seed")
            msg = message(self.settings.sender, self.addresses[side],
                          f"[seki {self.id}] {subject}", body,
                          [(name, docs.read_capped(self.gd.join(other(side))))])  # fmt: skip
            queued += self._queue(f"{self.id}-seed-{side}", msg)
        return queued


def _read_json(path: Path) -> dict:
    """The robot's own record of what it mailed (written whole by write_atomic): none yet
    if absent."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def run(
    spool_root: Path,
    dirs: list[Path],
    ref: Identity,
    settings: MailSettings,
    now: str,
    fetch: Callable[[Spool], int] | None = None,
    send: bool = True,
    *,
    public_report: PublicReport,
) -> RunReport:
    """One pass of the robot over its games; `public_report` writes the report a packet's
    mail carries (reports.mail_report)."""
    spool = Spool(spool_root)
    games = Games.load(dirs)
    report = RunReport()
    if fetch is not None:
        report.fetched = fetch(spool)
    read_inbox(spool, games, ref, settings, now, report)
    for root in games.roots.values():
        for outcome in referee.enforce_deadlines(root, ref, now):
            report.deadlines.append(outcome.message)
        report.queued += Mailer(spool, root, ref, settings, now, public_report).run()
    if send:
        report.delivery = send_outbox(spool, settings)
    return report
