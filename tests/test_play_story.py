"""`seki play` answers each packet once and tells the story since the player's last turn
(issue 30): a superseded or already-answered packet, or a finished game, is never offered
again, and a packet named on the command line is refused saying why; the packets that
came after the last one answered are told, in order, before the question."""

from __future__ import annotations

import pytest
from cligame import PACKET, ok, seki, started

PACKETS = "g/packets"


def packet(seq: int, side: str) -> str:
    return f"{PACKETS}/{seq:06d}-{side}.txt"


def play(root, who, *args):
    return seki(root, who, "play", *args, "--key", who, "--choose", "1")


def adjudicate(root, path) -> None:
    ok(root, "ref", "adjudicate", "g", str(path), "--key", "ref")


@pytest.fixture(scope="module")
def bids(tmp_path_factory):
    """Game g after both bids: Ishida (alice) bid on packet 1 through seki play, then
    Tokugawa (bob); the records after them ask for the first player's choice."""
    root = tmp_path_factory.mktemp("story")
    started(root)
    done = play(root, "alice", "--from", PACKETS, "--out", "a1.txt")
    assert done.exit_code == 0, done.output
    adjudicate(root, root / "a1.txt")
    done = play(root, "bob", "--from", PACKETS, "--out", "b1.txt")
    assert done.exit_code == 0, done.output
    adjudicate(root, root / "b1.txt")
    return root


def test_a_packet_answered_is_not_offered_again(bids):
    assert (bids / "g/records/000003.txt").is_file()
    done = play(bids, "alice", PACKET, "--out", "again.txt")
    assert done.exit_code == 1
    assert "you have answered packet 1 already" in done.output
    assert not (bids / "again.txt").exists()


def test_a_packet_older_than_one_answered_is_refused_saying_which(bids):
    """Bob bid on packet 2 (Alice's bid came first): packet 1 asked the same bid."""
    done = play(bids, "bob", packet(1, "tokugawa"), "--out", "old.txt")
    assert done.exit_code == 1
    assert "packet 1 is older than packet 2, which you have answered" in done.output
    assert not (bids / "old.txt").exists()


def test_the_story_since_the_last_turn_is_told_in_order(bids):
    """Alice answered packet 1; Bob's answers (by the heuristic bot) come as records while
    she waits. When she is asked again, every record after packet 1 is told, in order,
    and every packet told has its openings checked."""
    for n in range(20):  # Bob answers while he is asked
        bob = max(int(p.name[:6]) for p in (bids / PACKETS).glob("*-tokugawa.txt"))
        done = seki(bids, "bob", "bot", "turn", packet(bob, "tokugawa"), "--key", "bob",
                    "--out", f"bob{n}.txt")  # fmt: skip
        if "nothing is asked of you" in done.output:
            break
        adjudicate(bids, bids / f"bob{n}.txt")
    newest = max(int(p.name[:6]) for p in (bids / PACKETS).glob("*-ishida.txt"))
    told = play(bids, "alice", "--from", PACKETS, "--out", "a2.txt")
    assert "Since your last turn" in told.output, told.output
    story = told.output.split("Since your last turn")[1]
    records = [int(line.split("Record ")[1].split(":")[0])
               for line in story.splitlines() if line.strip().startswith("Record ")]  # fmt: skip
    assert records == list(range(2, newest + 1)), records
    assert "not checked: view packet" not in told.output


def test_a_finished_game_is_not_offered(tmp_path):
    started(tmp_path)
    resign = tmp_path / "resign.yaml"
    resign.write_text("format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
                      "actions:\n  - {type: resign}\n")  # fmt: skip
    ok(tmp_path, "alice", "turn", "sign", str(resign), "--packet", PACKET, "--key", "alice")
    adjudicate(tmp_path, tmp_path / "resign.signed.txt")
    done = play(tmp_path, "bob", "--from", PACKETS, "--out", "late.txt")
    assert done.exit_code == 1
    assert "no unanswered packet for you" in done.output
    named = play(tmp_path, "bob", packet(1, "tokugawa"), "--out", "late.txt")
    assert named.exit_code == 1 and "superseded by packet 2" in named.output
