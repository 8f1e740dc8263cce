"""A corpus of mails as real clients send a signed seki document (issue 31): the same
document attached, pasted, flowed, quoted, wrapped, in HTML, forwarded, re-encoded.
Each shape is built byte by byte the way the client named writes it, so that the robot
is tested against what players' clients really send, not against Python's own mail.

`shapes(document, packet)` gives {name: raw bytes}; `flowed`, `wrapped` and `html_lines`
are the clients' transformations, for tests that alter a copy after them."""

from __future__ import annotations

import base64
import quopri

FROM = "ishida@seki.test"
TO = "referee@seki.test"


def _head(subject: str, content_type: str, encoding: str = "7bit", sender: str = FROM,
          extra: str = "") -> str:  # fmt: skip
    return (f"From: Anna <{sender}>\r\nTo: {TO}\r\nSubject: {subject}\r\n"
            f"Message-ID: <{abs(hash(subject)) % 10**9}@client.test>\r\n"
            f"Date: Tue, 1 Dec 2026 10:00:00 +0100\r\nMIME-Version: 1.0\r\n{extra}"
            f"Content-Type: {content_type}\r\n"
            f"Content-Transfer-Encoding: {encoding}\r\n")  # fmt: skip


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def qp(text: str, charset: str = "utf-8") -> str:
    """Quoted-printable as clients write it: soft line breaks at 76 characters."""
    return quopri.encodestring(crlf(text).encode(charset)).decode("ascii")


def b64(data: bytes) -> str:
    return crlf(base64.encodebytes(data).decode("ascii"))


def soft_breaks(encoded: str, at: int) -> str:
    """Quoted-printable with a soft line break ("=" at a line's end) in every line longer
    than `at`, never inside an =XX escape: what a client writing shorter lines sends."""
    out = []
    for line in encoded.split("\r\n"):
        cut = at
        while 0 < cut < len(line) and "=" in line[cut - 2 : cut]:
            cut -= 1
        out.append(line[:cut] + "=\r\n" + line[cut:] if len(line) > at else line)
    return "\r\n".join(out)


def wrapped(text: str, width: int) -> str:
    """Hard wrapping (a client's "wrap at N columns", plain text): a line longer than
    `width` is broken at its last space that fits, the space dropped."""
    out = []
    for line in text.split("\n"):
        while len(line) > width and " " in line[1 : width + 1]:
            cut = line.rindex(" ", 1, width + 1)
            out.append(line[:cut])
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out)


def flowed(text: str, width: int = 72, delsp: bool = False, quote: str = "") -> str:
    """RFC 3676 format=flowed as Thunderbird (delsp=no) and Apple Mail (delsp=yes) write
    it: lines space-stuffed where they begin with a space, `>` or `From `; long lines
    broken after a space, each piece but the last ending in a space (a soft break)."""
    out = []
    for line in text.split("\n"):
        pieces = []
        while len(line) > width and " " in line[1:width]:
            cut = line.rindex(" ", 1, width) + 1
            pieces.append(line[:cut] + (" " if delsp else ""))
            line = line[cut:]
        pieces.append(line)
        for piece in pieces:
            if quote:
                out.append(quote + " " + piece)
            elif piece.startswith((" ", ">", "From ")):
                out.append(" " + piece)
            else:
                out.append(piece)
    return "\n".join(out)


def html_lines(text: str, tag: str = "div", attrs: str = "") -> str:
    """A pasted text as Gmail (<div>) or Outlook (<p class=MsoNormal>) writes it in HTML:
    one block per line, an empty line a <br>, runs of spaces as &nbsp; and a space."""
    out = []
    for line in text.split("\n"):
        escaped = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        lead = len(escaped) - len(escaped.lstrip(" "))
        escaped = "&nbsp;" * lead + escaped[lead:]
        escaped = escaped.replace("  ", "&nbsp; ")
        out.append(f"<{tag}{attrs}>{escaped or '<br>'}</{tag}>")
    return "\n".join(out)


def _multipart(head: str, boundary: str, parts: list[str]) -> str:
    body = "".join(f"--{boundary}\r\n{p}\r\n" for p in parts)
    return head + "\r\n" + "This is a multi-part message in MIME format.\r\n" + body + \
        f"--{boundary}--\r\n"  # fmt: skip


def _part(content_type: str, body: str, encoding: str = "7bit", extra: str = "") -> str:
    return (f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {encoding}\r\n"
            f"{extra}\r\n{body}")  # fmt: skip


def _html(inner: str) -> str:
    return f"<html><head><style>p {{ margin: 0 }}</style></head><body>\n{inner}\n</body></html>"


def _attachment(document: str, ctype: str = "text/plain; charset=UTF-8", name: str = "turn.txt",
                encoding: str = "base64") -> str:  # fmt: skip
    body = b64(document.encode()) if encoding == "base64" else crlf(document)
    return _part(f'{ctype}; name="{name}"', body, encoding,
                 f'Content-Disposition: attachment; filename="{name}"\r\n')  # fmt: skip


GREETING = "Hi referee,\n\nhere is my turn.\n\n"
SIGNATURE = "\n-- \nAnna\nSent from my desk\n"


def shapes(doc: str, packet: str) -> dict[str, bytes]:
    """Every client shape of one signed document `doc` (and `packet`, a referee's signed
    document that a reply quotes), as raw mail bytes."""
    s: dict[str, str] = {}
    flowed_ct = "text/plain; charset=UTF-8; format=flowed"
    s["thunderbird-attachment"] = _multipart(
        _head("[seki g] my turn", 'multipart/mixed; boundary="tb1"'),
        "tb1",
        [_part(f"{flowed_ct}; delsp=no", crlf(GREETING)), _attachment(doc)],
    )
    s["thunderbird-flowed-pasted"] = _head("[seki g] pasted", f"{flowed_ct}; delsp=no") + \
        "\r\n" + crlf(GREETING + flowed(doc, 72))  # fmt: skip
    quoted = "On 01/12/2026 09:00, Anna wrote:\n" + flowed(doc, 72, quote=">")
    s["thunderbird-quoted-reply"] = _head("Re: [seki g] my turn", flowed_ct) + "\r\n" + \
        crlf("Did my turn arrive? Here it is again.\n\n" + quoted)  # fmt: skip
    alternative = _multipart(
        'Content-Type: multipart/alternative; boundary="ol2"\r\n', "ol2",
        [_part("text/plain; charset=windows-1252", qp(GREETING, "cp1252"), "quoted-printable"),
         _part('text/html; charset="windows-1252"', qp(_html(html_lines(GREETING, "p",
               " class=MsoNormal")), "cp1252"), "quoted-printable")],
    )  # fmt: skip
    s["outlook-alternative-attachment"] = _multipart(
        _head("[seki g] turn", 'multipart/mixed; boundary="ol1"'), "ol1",
        [alternative, _attachment(doc)],
    )  # fmt: skip
    outlook = _html(html_lines(GREETING + doc, "p", " class=MsoNormal"))
    s["outlook-html-pasted"] = _head("[seki g] turn", 'text/html; charset="utf-8"',
                                     "quoted-printable") + "\r\n" + qp(outlook)  # fmt: skip
    gmail_html = _html('<div dir="ltr">' + html_lines(GREETING + doc) + "</div>")
    s["gmail-alternative-pasted"] = _multipart(
        _head("[seki g] turn", 'multipart/alternative; boundary="gm1"'), "gm1",
        [_part("text/plain; charset=UTF-8", qp(GREETING + doc), "quoted-printable"),
         _part("text/html; charset=UTF-8", qp(gmail_html), "quoted-printable")],
    )  # fmt: skip
    forward = ("---------- Forwarded message ---------\nFrom: Anna <ishida@seki.test>\n"
               "Date: Tue, 1 Dec 2026\nSubject: my turn\nTo: <referee@seki.test>\n\n")  # fmt: skip
    s["gmail-forwarded"] = _multipart(
        _head("Fwd: [seki g] my turn", 'multipart/alternative; boundary="gm2"'), "gm2",
        [_part("text/plain; charset=UTF-8", qp(forward + doc), "quoted-printable"),
         _part("text/html; charset=UTF-8", qp(_html('<div class="gmail_quote">'
               + html_lines(forward + doc) + "</div>")), "quoted-printable")],
    )  # fmt: skip
    s["gmail-reply-blockquote"] = _head("Re: [seki g] turn", "text/html; charset=UTF-8",
                                        "quoted-printable") + "\r\n" + qp(_html(
        "<div>Sent it yesterday:</div><blockquote class=\"gmail_quote\">"
        + html_lines(doc) + "</blockquote>"))  # fmt: skip
    s["apple-flowed-delsp"] = _head("[seki g] turn",
                                    "text/plain; charset=utf-8; format=flowed; delsp=yes",
                                    "quoted-printable") + "\r\n" + \
        qp(GREETING + flowed(doc, 66, delsp=True))  # fmt: skip
    s["apple-octet-attachment"] = _multipart(
        _head("[seki g] turn", 'multipart/mixed; boundary="ap1"'), "ap1",
        [_part("text/plain; charset=us-ascii", crlf(GREETING)),
         _attachment(doc, "application/octet-stream", "turn.txt")],
    )  # fmt: skip
    s["mutt-inline"] = _head("[seki g] turn", "text/plain; charset=us-ascii",
                             extra="Content-Disposition: inline\r\nUser-Agent: Mutt/2.2\r\n") + \
        "\r\n" + crlf(GREETING + doc + SIGNATURE)  # fmt: skip
    s["crlf-plain"] = _head("[seki g] turn", "text/plain; charset=utf-8") + "\r\n" + crlf(doc)
    s["base64-text"] = _head("[seki g] turn", "text/plain; charset=utf-8", "base64") + "\r\n" + \
        b64((GREETING + doc).encode())  # fmt: skip
    s["qp-soft-breaks"] = _head("[seki g] turn", "text/plain; charset=utf-8",
                                "quoted-printable") + "\r\n" + soft_breaks(qp(doc), 30)  # fmt: skip
    s["signature-block"] = _head("[seki g] turn", "text/plain; charset=utf-8") + "\r\n" + \
        crlf(doc + SIGNATURE)  # fmt: skip
    s["pasted-twice"] = _head("[seki g] turn", "text/plain; charset=utf-8") + "\r\n" + \
        crlf(GREETING + doc + "\nAgain, in case:\n\n" + doc)  # fmt: skip
    s["packet-quoted-below"] = _head("Re: [seki g] record 1", "text/plain; charset=utf-8") + \
        "\r\n" + crlf(GREETING + doc + "\nOn Tue, the referee wrote:\n" + "".join(
            "> " + line + "\n" for line in packet.splitlines()))  # fmt: skip
    nbsp = "\n".join(line.replace("  ", "\u00a0\u00a0") for line in doc.split("\n"))
    s["nbsp-pasted"] = _head("[seki g] turn", "text/plain; charset=utf-8", "quoted-printable") + \
        "\r\n" + qp(GREETING + nbsp)  # fmt: skip
    s["windows-1252"] = _head("[seki g] turn", "text/plain; charset=windows-1252",
                              "quoted-printable") + "\r\n" + \
        qp("Gr\u00fc\u00dfe, hier mein Zug \u2013 bitte:\n\n" + doc, "cp1252")  # fmt: skip
    inner = _multipart(
        _head("[seki g] my turn", 'multipart/mixed; boundary="in1"'),
        "in1",
        [_part("text/plain; charset=utf-8", crlf(GREETING)), _attachment(doc)],
    )
    s["eml-attached"] = _multipart(
        _head("Fwd: my turn", 'multipart/mixed; boundary="ev1"'), "ev1",
        [_part("text/plain; charset=utf-8", crlf("Forwarding my turn as attachment.\n")),
         _part("message/rfc822", inner, "7bit",
               'Content-Disposition: attachment; filename="my turn.eml"\r\n')],
    )  # fmt: skip
    for width in (66, 72, 76):
        s[f"rewrapped-{width}"] = _head("[seki g] turn", "text/plain; charset=utf-8") + "\r\n" + \
            crlf(GREETING + wrapped(doc, width))  # fmt: skip
    return {name: text.encode("ascii") for name, text in s.items()}


def too_large(doc: str, size: int = 6_000_000) -> bytes:
    """A mail over the robot's limit: the turn pasted, and a photo of the board attached."""
    photo = b64(bytes(range(256)) * (size // 256 * 3 // 4 + 1))
    return _multipart(
        _head("[seki g] turn and a photo", 'multipart/mixed; boundary="big"'), "big",
        [_part("text/plain; charset=utf-8", crlf(GREETING + doc)),
         _part('image/jpeg; name="board.jpg"', photo, "base64",
               'Content-Disposition: attachment; filename="board.jpg"\r\n')],
    ).encode("ascii")  # fmt: skip
