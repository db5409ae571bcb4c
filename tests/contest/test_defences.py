"""The contest server under attack (issue 47): malformed requests over a raw socket, a body past
the limit, an author uploading too often, one author's many uploads against the others'. Each
is refused with a 4xx and nothing else; the server goes on."""
from __future__ import annotations

import socket
import urllib.parse
from pathlib import Path

import pytest

from contest.runner import Contest
from tests.conftest import BOTS

from .conftest import CONFIG, NOISY_BOT, bot_folder, secret_of, start, stop


def raw(url: str, data: bytes) -> bytes:
    """Send ``data`` as it is and read the answer (until the server closes or 5 s pass)."""
    parsed = urllib.parse.urlsplit(url)
    with socket.create_connection((parsed.hostname, parsed.port), timeout=10) as sock:
        sock.sendall(data)
        sock.settimeout(5)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and len(answer) > 12:
                    head, _, body = answer.partition(b"\r\n\r\n")
                    length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                    if length and len(body) >= int(length[0].split(b":")[1]):
                        break
        except TimeoutError:
            pass
    return answer


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_malformed_requests_and_uploads_too_often_get_a_4xx(tmp_path: Path) -> None:
    config = tmp_path / "class.toml"
    config.write_text(CONFIG.format(greedy=BOTS / "greedy", every=60), encoding="utf-8")
    (tmp_path / "submissions").mkdir()
    server = start(tmp_path, config)
    try:
        links = server.invite("ana")
        ana = secret_of(links["ana"])
        auth = f"Authorization: Bearer {ana}\r\n".encode()
        cookie = f"Cookie: arena_session={ana}\r\n".encode()
        cases = {
            "a length that is no number": b"POST /api/upload HTTP/1.1\r\nHost: x\r\n" + auth
                                          + b"Content-Length: abc\r\n\r\n",
            "a negative length": b"POST /api/upload HTTP/1.1\r\nHost: x\r\n" + auth
                                 + b"Content-Length: -5\r\n\r\n",
            "no length": b"POST /api/upload HTTP/1.1\r\nHost: x\r\n" + auth
                         + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "past the limit": b"POST /api/upload HTTP/1.1\r\nHost: x\r\n" + auth
                              + b"Content-Length: 99999999\r\n\r\n" + b"x" * 1000,
            "an unparsable form": b"POST /me/upload HTTP/1.1\r\nHost: x\r\n" + cookie
                                  + b"Content-Type: multipart/form-data; boundary=\r\n"
                                  + b"Content-Length: 10\r\n\r\n[[[[[[[[[[",
            "a form without its token": b"POST /teacher/action HTTP/1.1\r\nHost: x\r\n" + cookie
                                        + b"Content-Type: application/x-www-form-urlencoded\r\n"
                                        + b"Content-Length: 14\r\n\r\naction=reveal&",
            "an upload id that is no number": b"GET /api/uploads/abc HTTP/1.1\r\nHost: x\r\n"
                                              + auth + b"\r\n",
            "a secret far too long": b"GET /login/" + b"a" * 6000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            "no bearer": b"POST /api/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        }
        for what, data in cases.items():
            answer = raw(server.url, data)
            assert 400 <= status_of(answer) < 500, (what, answer[:300])
            assert b"Traceback" not in answer and ana.encode() not in answer, what
        # one upload, then another too soon: 429, said in one line by arena submit
        first = server.arena("submit", links["ana"], str(bot_folder(tmp_path / "a", NOISY_BOT.format(who="ana"))))
        assert first.returncode == 0, first.stdout + first.stderr
        again = server.arena("submit", links["ana"], str(tmp_path / "a"))
        assert again.returncode == 2
        assert again.stderr.strip().count("\n") == 0 and "429" in again.stderr and "wait" in again.stderr
        status, _, page = server.request("GET", "/")                  # it goes on
        assert status == 200
    finally:
        out, err = stop(server)
    assert "Traceback" not in out + err and ana not in out + err


def test_one_authors_many_uploads_do_not_hold_up_the_others(tmp_path: Path) -> None:
    """The check queue takes authors in turn: a newer upload of an author replaces their older
    one and goes to the back; nobody waits behind another's stream of uploads."""
    config = tmp_path / "class.toml"
    config.write_text(CONFIG.format(greedy=BOTS / "greedy", every=0), encoding="utf-8")
    (tmp_path / "submissions").mkdir()
    contest = Contest(config, tmp_path / "out")
    source = (BOTS / "random" / "main.py").read_bytes()
    first = contest.receive("ana", "a.py", source)
    contest.receive("bob", "b.py", source)
    for _ in range(5):
        last = contest.receive("ana", "a.py", source + b"\n# again\n")
    assert list(contest._queue.items()) == [("bob", first + 1), ("ana", last)]
    assert (tmp_path / "submissions" / "ana" / "a.py").read_bytes().endswith(b"# again\n")
    assert not list((tmp_path / "submissions").glob(".incoming-*"))
