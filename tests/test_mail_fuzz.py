"""Mutated mails through the robot's real entry point (`robot.run`): no pass may raise,
every message leaves the inbox, and a second pass finds nothing left. A small count runs in
the suite; SEKI_FUZZ_MAILS=N runs more (bench/fuzz_mail.sh)."""

from __future__ import annotations

import os
import random

from test_robot_hostile import HEAD, HOSTILE

from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.mail import incoming as mail_in
from sekigahara_pbem.mail import robot
from sekigahara_pbem.mail.outgoing import Spool
from sekigahara_pbem.mail.settings import MailSettings
from sekigahara_pbem.reports import mail_report

NOW = "2026-11-22T10:00:00Z"
COUNT = int(os.environ.get("SEKI_FUZZ_MAILS", "150"))
BATCH = 100
SEEDS = [
    *HOSTILE.values(),
    HEAD + b"Subject: [seki g1] t\r\nContent-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"
    b"\r\n\r\n-----BEGIN SEKI DOCUMENT-----\r\nformat: seki-turn/1\r\n=\r\n--q--\r\n",
]


def _mutate(rng: random.Random, raw: bytes) -> bytes:
    data = bytearray(raw[:20_000] if len(raw) > 20_000 and rng.random() < 0.5 else raw)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data) + 1)
        kind = rng.randrange(5)
        if kind == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = rng.choice([b"\r\n", b"\n", b"=?utf-8?b?DQo=?=", b"--", b"\x00", b":"])
        elif kind == 2:
            del data[at : at + rng.randint(1, 50)]
        elif kind == 3:
            data[at:at] = data[at : at + rng.randint(1, 200)] * rng.randint(1, 20)
        else:
            data[at:at] = rng.choice(
                [b"Content-Type: multipart/mixed; boundary=q\r\n", b"charset=\"idna\"",
                 b"Content-Transfer-Encoding: base64\r\n", b"=?x-bad?q?=FF?="]
            )  # fmt: skip
    return bytes(data)


def test_mutated_mails_never_break_a_pass(tmp_path):
    rng = random.Random(19)
    ref = generate("referee")
    settings = MailSettings(sender="referee@seki.example", smtp=None, imap=None)
    quarantined = 0
    for batch in range(0, COUNT, BATCH):
        spool_root = tmp_path / f"spool{batch}"
        mails = [_mutate(rng, rng.choice(SEEDS)) for _ in range(min(BATCH, COUNT - batch))]
        fetch = lambda s, mails=mails: sum(mail_in.save(s, m) for m in mails)  # noqa: E731
        report = robot.run(spool_root, [], ref, settings, NOW, fetch, send=False,
                           public_report=mail_report)  # fmt: skip
        assert not report.errors, report.errors[:3]
        assert not list(Spool(spool_root).folder("inbox").iterdir())
        again = robot.run(spool_root, [], ref, settings, NOW, None, send=False,
                          public_report=mail_report)  # fmt: skip
        assert not again.errors and not again.quarantined
        quarantined += len(report.quarantined)
    print(f"fuzzed {COUNT} mails, {quarantined} quarantined, 0 failures")
