"""Issue 37, hole 5: a POST to the page that the page never sends is a one-line refusal,
never an error on the player's terminal nor a process that swallows what it is sent. A
body nested thousands deep is refused (400) before the JSON parser sees it; a body past
the size cap is refused (413) as soon as it is, the rest not read, whether its length
is announced or it comes in chunks without end; a pick list that names a choice twice is
refused (400), the question still open; a sender that hangs up mid-body is no error
either. Through real HTTP to the real `seki solo --web`,
its terminal read when it ends."""

from __future__ import annotations

import contextlib
import json
import socket
import time

from webdoor import Solo, door, enter, post, request

from sekigahara_pbem.refusal import ExitStatus


def _moment(solo: Solo, cookie: dict) -> dict:
    _, port, _ = door(solo.address)
    status, _, data = request(port, "GET", "/state", cookie)
    assert status == 200
    return json.loads(data)


def _asked(solo: Solo, cookie: dict) -> dict:
    """The page's data once its first question is there: the page opens while the
    command may still be making it ("waiting"), and polls, as this does."""
    deadline = time.monotonic() + 60
    now = _moment(solo, cookie)
    while now.get("waiting") and time.monotonic() < deadline:
        time.sleep(0.05)
        now = _moment(solo, cookie)
    return now


def _stopped_quietly(solo: Solo, cookie: dict) -> None:
    """Stop, with the cookie: the command ends as stopped, and nothing it said on its
    terminal is a traceback."""
    assert post(solo.address, "stop", b"{}", cookie)[0] == 200
    status, said = solo.ended()
    assert status == ExitStatus.STOPPED, said
    assert "Traceback" not in said and "Exception" not in said, said


def _unfinished(port: int, head: str, sent: bytes) -> bytes:
    """Send a request's head and this much of its body, never the rest: the server's
    answer (a server that waits for the rest never gives one: the socket times out)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        # the server may answer and hang up before taking all of it
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head.encode("latin-1") + sent)
        answer = b""
        while b"\r\n" not in answer:
            got = sock.recv(4096)
            if not got:
                break
            answer += got
        return answer


def test_a_body_nested_deep_is_refused_without_a_traceback(tmp_path):
    with Solo(tmp_path) as solo:
        cookie = enter(solo.address)
        deep = b'{"seq": 0, "picks": ' + b"[" * 5_000 + b"]" * 5_000 + b"}"
        status, answer = post(solo.address, "answer", deep, cookie)
        assert status == 400 and list(answer) == ["error"], answer
        deeper = b"[" * 100_000 + b"]" * 100_000
        assert post(solo.address, "answer", deeper, cookie)[0] == 413
        assert _moment(solo, cookie)["seq"] == 0
        _stopped_quietly(solo, cookie)


def test_a_body_past_the_cap_is_refused_before_it_is_all_sent(tmp_path):
    """Past the cap, announced or in chunks, 413 with the rest unsent; a sender that hangs
    up mid-body leaves no traceback either."""
    with Solo(tmp_path) as solo:
        cookie = enter(solo.address)
        origin, port, _ = door(solo.address)
        head = f"POST /answer HTTP/1.1\r\nHost: {origin[7:]}\r\nCookie: {cookie['Cookie']}\r\n"
        head += "Content-Type: application/json\r\n"
        said = _unfinished(port, head + f"Content-Length: {64 << 20}\r\n\r\n", b"[" * 1024)
        assert said.startswith(b"HTTP/1.1 413 "), said
        chunk = b"1000\r\n" + b" " * 0x1000 + b"\r\n"
        said = _unfinished(port, head + "Transfer-Encoding: chunked\r\n\r\n", chunk * 64)
        assert said.startswith(b"HTTP/1.1 413 "), said
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(f'{head}Content-Length: 100\r\n\r\n{{"seq'.encode())  # then hangs up
        assert _moment(solo, cookie)["seq"] == 0
        _stopped_quietly(solo, cookie)


def test_a_choice_picked_twice_is_refused_and_the_question_stays(tmp_path):
    with Solo(tmp_path) as solo:
        cookie = enter(solo.address)
        now = _asked(solo, cookie)
        assert now["question"]["choices"], now
        for picks in ([0, 0], [0] * 1_000):
            body = json.dumps({"seq": now["seq"], "picks": picks}).encode()
            status, answer = post(solo.address, "answer", body, cookie)
            assert status == 400 and list(answer) == ["error"], (picks[:3], answer)
        zeros = json.dumps({"seq": now["seq"], "picks": [0] * 100_000}).encode()
        assert post(solo.address, "answer", zeros, cookie)[0] == 413
        assert _moment(solo, cookie) == now
        _stopped_quietly(solo, cookie)
