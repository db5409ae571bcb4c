"""``arena serve``, ``arena contest invite`` and ``arena submit`` end to end (issue 46), and the
server's defences against other authors and against none (issue 47): a real server process,
real sockets, real checks and matches."""
from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from contest.app import HEADERS

from .conftest import BROKEN_BOT, NOISY_BOT, bot_folder, secret_of, start, stop


def matches_of(server, name: str) -> list[int]:
    from tournaments.store import Store
    with Store.open(server.output) as store:
        ids = {e.name: e.id for e in store.field.entrants()}
        return [m.id for m in store.matches.all() if ids.get(name) in m.seats]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_authors_hand_in_and_read_only_their_own(server, tmp_path: Path) -> None:
    links = server.invite("ana", "bob")
    assert set(links) == {"ana", "bob"} and all(link.startswith(server.url + "login/")
                                                for link in links.values())
    assert (server.output / "invites.csv").read_text().startswith("name,link\n")
    ana, bob = secret_of(links["ana"]), secret_of(links["bob"])

    # ana's first try has a syntax error: refused, with the traceback, exit code 1
    broken = server.arena("submit", links["ana"], str(bot_folder(tmp_path / "broken", BROKEN_BOT)))
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "refused" in broken.stdout and "SyntaxError" in broken.stdout
    fixed = server.arena("submit", links["ana"], str(bot_folder(tmp_path / "ana", NOISY_BOT.format(who="ana"))))
    assert fixed.returncode == 0 and "admitted" in fixed.stdout, fixed.stdout + fixed.stderr
    done = server.arena("submit", links["bob"], str(bot_folder(tmp_path / "bob", NOISY_BOT.format(who="bob"))))
    assert done.returncode == 0, done.stdout + done.stderr
    server.wait_for(lambda: server.stored() >= 6)                      # every pair, both seats
    server.wait_for(lambda: (server.output / "site" / "index.html").is_file())

    # ana's own page: her uploads with the traceback, her matches; her match with her stderr
    status, headers, page = server.request("GET", "/me", cookie=ana)
    assert status == 200 and b"SyntaxError" in page and b"/me/match/" in page
    for name, value in HEADERS.items():
        assert headers[name.lower()] == value
    against_greedy = [m for m in matches_of(server, "ana") if m not in matches_of(server, "bob")]
    status, _, page = server.request("GET", f"/me/match/{against_greedy[0]}", cookie=ana)
    assert status == 200 and b"SECRET-DEBUG-LINE of ana" in page
    assert b"&lt;b&gt;bold&lt;/b&gt;" in page and b"<b>bold" not in page       # escaped

    # nobody else reads it: bob's session gets 404, no session 403, and no page leaks
    for path in (f"/me/match/{against_greedy[0]}", "/teacher", "/teacher/tournament.sqlite"):
        status, _, page = server.request("GET", path, cookie=bob)
        assert status == 404 and b"ana" not in page and b"SECRET" not in page, path
    for path in ("/me", f"/me/match/{against_greedy[0]}", "/teacher", "/teacher/site.zip"):
        status, _, page = server.request("GET", path)
        assert status == 403 and b"SECRET" not in page, path
    status, _, page = server.request("GET", "/me", cookie=bob)
    assert b"SyntaxError" not in page and b"SECRET-DEBUG-LINE of ana" not in page
    ana_upload = 1
    status, _, _ = server.request("GET", f"/api/uploads/{ana_upload}",
                                  headers={"Authorization": f"Bearer {bob}"})
    assert status == 404
    for secret in ("", "x" * 32, ana[:-1] + ("A" if ana[-1] != "A" else "B"), "x" * 5000):
        status, _, page = server.request("GET", f"/login/{secret}")
        assert status in (404, 405) and b"Traceback" not in page

    # the public report holds nobody's stderr
    site = server.output / "site"
    assert not [p for p in site.rglob("*") if p.is_file() and b"SECRET-DEBUG-LINE" in p.read_bytes()]

    # a form without its token, or with another session's, is refused
    status, _, _ = server.request("POST", "/me/upload", cookie=ana,
                                  body=b"--x\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n"
                                       b"forged\r\n--x--\r\n",
                                  headers={"Content-Type": "multipart/form-data; boundary=x"})
    assert status == 403

    # the teacher reissues bob's link: the old one stops working
    teacher = secret_of(server.teacher)
    status, _, page = server.request("GET", "/teacher", cookie=teacher)
    assert status == 200 and b"ana" in page and b"bob" in page
    token = re.search(rb'name="csrf" value="([0-9a-f]+)"', page).group(1).decode()
    status, _, page = server.request(
        "POST", "/teacher/action", cookie=teacher,
        body=f"csrf={token}&action=reissue&author=bob".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200 and b"/login/" in page
    status, _, _ = server.request("GET", f"/login/{bob}")
    assert status == 404
    assert not any(secret in line for line in server.lines for secret in (ana, bob))


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_server_killed_mid_match_resumes_losing_nothing(contest_folder, tmp_path: Path) -> None:
    folder, config = contest_folder
    server = start(folder, config)
    try:
        links = server.invite("ana", "bob", "cy")
        for name in links:
            done = server.arena("submit", links[name],
                                str(bot_folder(tmp_path / name, NOISY_BOT.format(who=name))))
            assert done.returncode == 0, done.stdout + done.stderr
        server.wait_for(lambda: server.stored() >= 1)
    finally:
        stop(server, signal.SIGKILL)                                   # kill -9, mid-run
    stored = server.stored()
    (folder / "submissions" / ".incoming-99").mkdir()                   # half received
    again = start(folder, config)
    try:
        again.wait_for(lambda: again.stored() >= 12)                     # 4 entrants, 6 pairs
        assert again.stored() >= stored
        assert not (folder / "submissions" / ".incoming-99").exists()
        status, _, page = again.request("GET", "/me", cookie=secret_of(links["cy"]))
        assert status == 200 and b"admitted" in page                      # the old links work
    finally:
        out, err = stop(again, signal.SIGINT)
    assert again.proc.returncode == 130, err
    from tournaments.store import Store
    with Store.open(again.output) as store:
        sets = [(m.slot, m.rotation, m.versions) for m in store.matches.all()]
    assert len(sets) == len(set(sets)) == 12                             # each match once
    assert sorted(os.listdir(folder / "submissions")) == ["ana", "bob", "cy"]
