"""Mail as players and strangers really send it, through the real SMTP server into the
real IMAP mailbox, read by the real robot (`seki referee run`, tests/mailplay.py)
(issue 37, "Mail shapes" and hole 6): a document whose game id is a 5,000-digit number is
refused, not an internal error; a turn attached with a byte-order mark, or pasted and
re-wrapped at 64 columns, is taken; a reply names what the sender sent and its subject
gets one "Re:"; what the robot says of the second join is what it does."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

import pytest
from mailcorpus import wrapped
from mailplay import Campaign, address
from mailservers import PASSWORD

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate

GAMES = ("bom", "wrap")
STRANGER = "mallory@evil.test"


@pytest.fixture(scope="module")
def campaign(servers, tmp_path_factory):
    """Games with both sides' mail addresses, played by mail to record 1 (the bids
    asked); `said`: what each robot pass printed."""
    c = Campaign(tmp_path_factory.mktemp("shapes"), servers)
    for game_id in GAMES:
        c.new_game(game_id)
    c.said = [c.deliver() for _ in range(3)]  # invitations; joins; seeds (record 1)
    assert all(f"accepted: {g}: tokugawa sent its seed; the game is set up (record 1)" in c.said[2]
               for g in GAMES), c.said  # fmt: skip
    return c


def _post(c: Campaign, sender: str, subject: str, body: str, files=()) -> None:
    """A mail through the real SMTP server, `files` attached: (name, bytes)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, address("referee"), subject
    msg.set_content(body)
    for name, data in files:
        msg.add_attachment(data, maintype="text", subtype="plain", filename=name)
    smtp = smtplib.SMTP("127.0.0.1", c.servers.smtp.port, timeout=30)
    smtp.starttls(context=c.servers.tls)
    smtp.login("tokugawa", PASSWORD)
    smtp.send_message(msg)
    smtp.quit()


def _turn(c: Campaign, game_id: str) -> str:
    """Ishida's bid answering its packet, as its bot signs it (not yet sent)."""
    player = c.players["ishida"]
    return player.bots[game_id].answer(player.latest[game_id][1], "packet")


def _replies(c: Campaign, side: str, subject: str) -> list[EmailMessage]:
    """The robot's replies in a player's mailbox (read once) with this subject."""
    mail = c.players[side].read_mail()
    return [m for m in mail if m["Auto-Submitted"] == "auto-replied" and m["Subject"] == subject]


def _text(msg: EmailMessage) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def test_the_second_join_says_the_robot_mails_the_joins(campaign):
    """The robot mails each side the other's join itself (the seed calls): it no longer
    tells its referee to send them."""
    said = campaign.said[1]
    assert "both sides are in: each side is mailed the other's join" in said, said
    assert "send each side" not in said


def test_a_turn_attached_with_a_byte_order_mark_is_taken(campaign):
    """Notepad saves a file with a byte-order mark; `seki adjudicate` takes such a file,
    and so does the robot, attached."""
    turn = _turn(campaign, "bom").encode("utf-8")
    _post(campaign, address("ishida"), "[seki bom] my bid", "My bid, attached.",
          [("turn.txt", b"\xef\xbb\xbf" + turn)])  # fmt: skip
    said = campaign.robot()
    assert "accepted: bom: record 2" in said, said


def test_a_turn_pasted_and_rewrapped_at_64_columns_is_taken(campaign):
    """docs/referee.md: lines wrapped at 64 to 78 columns are undone. At 64, a sealed
    turn's age lines (two spaces and 64 characters) are broken in their indentation."""
    text = wrapped(_turn(campaign, "wrap"), 64)
    assert all(len(line) <= 64 or " " not in line for line in text.split("\n"))  # SSHSIG's
    _post(campaign, address("ishida"), "[seki wrap] my bid", "Here it is:\n\n" + text)
    said = campaign.robot()
    assert "accepted: wrap: record 2" in said, said


def _unreadable(game: str) -> str:
    """A signed document whose body is no YAML (an unclosed bracket)."""
    return signing.sign(f"format: seki-turn/1\ngame: [{game}\n", generate("ishida"))


def test_a_reply_names_what_the_sender_sent(campaign):
    """A document the robot cannot read is named as its sender knows it: the attached
    file's name, or the message body; never by the robot's own spool file."""
    _post(campaign, address("ishida"), "[seki bom] two files", _unreadable("pasted"),
          [("my-turn.txt", _unreadable("attached").encode())])  # fmt: skip
    campaign.robot()
    (reply,) = _replies(campaign, "ishida", "Re: [seki bom] two files")
    text = _text(reply)
    assert "  - my-turn.txt: not valid YAML" in text, text
    assert "  - the message body: not valid YAML" in text, text
    assert "mail-" not in text, text


def test_a_reply_to_a_reply_gets_no_second_re(campaign):
    """A subject that already answers ("RE: ...", in any case) is answered as it is."""
    _post(campaign, address("ishida"), "RE: [seki bom] record 1", _unreadable("again"))
    campaign.robot()
    assert _replies(campaign, "ishida", "RE: [seki bom] record 1")


def test_a_game_id_of_5000_digits_is_refused_not_an_internal_error(campaign):
    """Hole 6: Python will not read a decimal number of more than 4,300 digits, and the
    robot's pass ended in an internal error (exit 70, the mail quarantined). Any number
    longer than seki writes is a refusal, from a player (answered) or a stranger (not)."""
    body = "format: seki-turn/1\ngame: " + "9" * 5000 + "\nside: ishida\n"
    forged = signing.sign(body, generate("ishida"))
    for sender in (address("ishida"), STRANGER):
        _post(campaign, sender, "[seki bom] turn", "Attached.", [("turn.txt", forged.encode())])
    said = campaign.robot()  # exit 0: no internal error
    assert "quarantined" not in said, said
    assert f"from {STRANGER}: not answered (turn.txt: a number longer" in said, said
    (reply,) = _replies(campaign, "ishida", "Re: [seki bom] turn")
    assert "  - turn.txt: a number longer than 100 characters (line 2)" in _text(reply)
