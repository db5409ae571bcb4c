"""``arena serve``, ``arena contest invite`` and ``arena submit`` (docs/serve.md)."""
from __future__ import annotations

import csv
import io
import json
import os
import signal
import socket
import sys
import tarfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import click

from arena.clihelp import SentenceGroup
from arena.errors import ArenaError
from arena.outputs import check_output_folder
from arena.text import visible, visible_line
from contest.db import TEACHER, ContestDB
from contest.runner import Contest, read_address, run_contest, write_address
from contest.uploads import Limits, MiB
from tournaments.config import TournamentConfig, load_config
from tournaments.lock import output_lock

POLL_S = 1.0


def _say(line: str) -> None:
    click.echo(visible_line(line), err=True)


def _output(config_path: Path, output: Path | None) -> Path:
    config = load_config(config_path)
    if output is not None:
        check_output_folder(output, "--output")
        return output.resolve()
    check_output_folder(config.output_dir, "the config's 'output'")
    return config.output_dir


@click.command("serve")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--host", default=None, help="Listen on this address (default: the config's "
                                           "serve.host, else 127.0.0.1; 0.0.0.0 opens it to the class).")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Listen on this port (default: serve.port, else 8000; 0: any free port).")
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Store the results in this folder (default: the config's `output`).")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Play this many matches at once (default: the config's `workers`, else one per "
                   "core but one, which the pages and the checks keep).")
@click.option("--quiet", "-q", is_flag=True, help="Show no progress bar.")
def serve_command(config_path: Path, host: str | None, port: int | None, output: Path | None,
                  workers: int | None, quiet: bool) -> None:
    """Run the contest of CONFIG behind a web server: authors hand in from a browser (or with
    `arena submit`) and read their own results; everyone sees the leaderboard. Ctrl-C stops it;
    the same command resumes."""
    config = load_config(config_path)
    folder = _output(config_path, output)
    with output_lock(folder, hold=True):  # refused at once while another run has the folder
        _serve(config_path, config, folder, host, port, workers, quiet)


def serve_workers(config: TournamentConfig, asked: int | None) -> int | None:
    """The matches the contest plays at once: as asked, else as the config says, else one per
    core but one: the pages and the checks keep a core, so that a class uploading at the
    deadline is answered at once (docs/serve.md gives the figures)."""
    if asked is not None or config.workers:
        return asked
    from tournaments.backends import default_workers
    return max(1, default_workers(config.cores_per_match) - 1)


def _serve(config_path: Path, config: TournamentConfig, folder: Path, host: str | None,
           port: int | None, workers: int | None, quiet: bool) -> None:
    import uvicorn
    # the server's threads (pages, checks, the loop) share one interpreter: a short switch
    # interval lets a page in sooner while the loop computes (95th percentile 330 -> 220 ms in
    # benchmarks/serve.py)
    sys.setswitchinterval(0.001)

    from contest.app import make_app

    settings = config.serve
    limits = Limits(settings["upload_mb"] * MiB, settings["unpacked_mb"] * MiB, settings["files"])
    contest = Contest(config_path, folder, limits, _say, upload_every=float(settings["upload_every_s"]))
    contest.discard_incomplete()  # before the first request can arrive
    host = host or settings["host"]
    port = settings["port"] if port is None else port
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise ArenaError(f"cannot listen on {host}:{port} ({exc.strerror}); choose another "
                         "--port, or --port 0 for any free one") from None
    sock.listen(128)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = settings["base_url"] or f"http://{shown}:{bound}/"
    url = url if url.endswith("/") else url + "/"
    app = make_app(contest, secure_cookie=url.startswith("https:"), open_signup=settings["open"])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           timeout_graceful_shutdown=5))
    web = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="contest-web",
                           daemon=True)
    web.start()
    write_address(folder, url)
    teacher = contest.db.issue(TEACHER)
    click.echo(f"{config.name}: serving on {url} (results in {folder})")
    click.echo(f"the teacher's page (keep this link to yourself): {url}login/{teacher}")
    click.echo(f"invite authors: arena contest invite {config_path} NAME...")
    interrupted = False
    if threading.current_thread() is threading.main_thread():  # Ctrl-C, even where inherited
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as ignored (a background job)
    try:
        interrupted = run_contest(contest, serve_workers(config, workers), progress=not quiet,
                                  reveal=lambda: contest.db.setting("reveal_seed") == "yes")
    finally:
        server.should_exit = True
        web.join(timeout=10)
        contest.db.close()
    _say("stopped serving; run the same command to resume")
    if interrupted:
        sys.exit(130)


@click.group("contest", cls=SentenceGroup)
def contest_group() -> None:
    """A contest served by `arena serve`: its authors and their links."""


@contest_group.command("invite")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("names", nargs=-1, required=True)
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The contest's results folder (default: the config's `output`).")
@click.option("--base-url", default=None, metavar="URL",
              help="The server's address in the links (default: the running server's, from "
                   "OUTPUT/serve.json, or the config's serve.base_url).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the names and links here too, for a mail merge (default: "
                   "OUTPUT/invites.csv).")
def invite_command(config_path: Path, names: tuple[str, ...], output: Path | None,
                   base_url: str | None, csv_path: Path | None) -> None:
    """Create each author NAME (or give them a new link, which replaces the old one) and print
    their secret link. Works while the server runs."""
    config = load_config(config_path)
    folder = _output(config_path, output)
    base = base_url or config.serve["base_url"] or read_address(folder)
    if not base:
        raise ArenaError(f"the server's address is not known yet: start `arena serve "
                         f"{config_path}` first, or give --base-url")
    base = base if base.endswith("/") else base + "/"
    if not base.startswith(("http://", "https://")):
        raise ArenaError(f"--base-url {base!r}: give the address as http://HOST:PORT/ or https://...")
    db = ContestDB.in_output(folder)
    rows = []
    try:
        for name in names:
            rows.append((name, f"{base}login/{db.issue(name)}"))
    finally:
        db.close()
    target = csv_path or folder / "invites.csv"
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("name", "link"))
    writer.writerows(rows)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(buffer.getvalue())
    for name, link in rows:
        click.echo(f"{name} {link}")
    click.echo(f"written to {target} (each link is its author's alone: it opens their page)",
               err=True)


@click.command("submit")
@click.argument("link")
@click.argument("folder", type=click.Path(exists=True, path_type=Path))
@click.option("--timeout", "wait_s", type=click.FloatRange(min=1), default=600, show_default=True,
              help="Give up waiting for the check after this many seconds.")
def submit_command(link: str, folder: Path, wait_s: float) -> None:
    """Hand in FOLDER (a bot folder, or one source file) to the contest server at LINK (your
    secret link), wait for its check and print what it says. Exit code 0: it passed; 1: it was
    refused; 2: bad input."""
    base, secret = _parse_link(link)
    data, filename = _pack(folder)
    answer = _request(f"{base}api/upload", secret, data, {"X-Filename": filename,
                                                         "Content-Type": "application/octet-stream"})
    upload = answer["id"]
    click.echo(f"upload {upload} received; waiting for its check")
    deadline = time.monotonic() + wait_s
    state = ""
    while True:
        status = _request(f"{base}api/uploads/{upload}", secret)
        if status["state"] != state:
            state = status["state"]
            click.echo(f"  {state}")
        if status["done"]:
            break
        if time.monotonic() > deadline:
            raise ArenaError(f"upload {upload} is still {state} after {wait_s:g} s; see your page")
        time.sleep(POLL_S)
    if status["reason"]:
        click.echo(visible_line(status["reason"]))
    if status["output"]:
        click.echo(visible(status["output"]))
    if state != "admitted":
        sys.exit(1)
    click.echo(f"admitted: it plays its matches now; your page: {base}me")


def _parse_link(link: str) -> tuple[str, str]:
    parsed = urllib.parse.urlsplit(link)
    parts = parsed.path.rstrip("/").split("/")
    if parsed.scheme not in ("http", "https") or len(parts) < 2 or parts[-2] != "login" \
            or not parts[-1]:
        raise ArenaError(f"{link!r} is not a contest link: it looks like "
                         "http://HOST:PORT/login/SECRET")
    prefix = "/".join(parts[:-2])
    return f"{parsed.scheme}://{parsed.netloc}{prefix}/", parts[-1]


def _pack(path: Path) -> tuple[bytes, str]:
    """A bot folder as a .tar.gz (``__pycache__`` and hidden folders left out), or one file."""
    if path.is_file():
        return path.read_bytes(), path.name
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for item in sorted(path.rglob("*")):
            rel = item.relative_to(path)
            if any(part == "__pycache__" or part.startswith(".") for part in rel.parts):
                continue
            archive.add(item, arcname=rel.as_posix(), recursive=False)
    return buffer.getvalue(), f"{path.resolve().name or 'bot'}.tar.gz"


def _request(url: str, secret: str, data: bytes | None = None,
             headers: dict[str, str] | None = None) -> dict:
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET",
                                     headers={"Authorization": f"Bearer {secret}", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            said = json.loads(exc.read()).get("error", "")
        except ValueError:
            said = ""
        raise ArenaError(f"the server refused it: {exc.code} {said}".strip()) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ArenaError(f"cannot reach the server at {url.split('/api/')[0]} ({reason})") from None
