"""The contest's web pages (Starlette; ``arena serve`` runs them with uvicorn).

Public: ``/`` (the leaderboard and a link to the report) and ``/report/`` (the report, without any
stderr or check output). An author's own, behind their session: ``/me`` (upload, every upload's
state and check output, versions, matches), ``/me/match/N`` (a match of theirs with their bot's
stderr and notes). The teacher's: ``/teacher``. ``/login/SECRET`` opens a session. ``/api/`` is
what ``arena submit`` speaks (the secret as a bearer token).

Every answer carries the security headers (:data:`HEADERS`); a form carries a token tied to its
session (CSRF); every private URL answers 404 to any other session and 403 to none, and an error
says nothing more than that.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from contest import pages
from contest.db import DONE, TEACHER
from contest.runner import RESTORE, REVEAL, SUSPEND, WITHDRAW, Contest

COOKIE = "arena_session"
HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self' "
                                "'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'self'; object-src 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_pages = Environment(loader=PackageLoader("contest", "templates"), autoescape=True,
                     undefined=StrictUndefined)


class SecurityHeaders:
    """The headers of :data:`HEADERS` on every answer; a failure inside is a bare 500, never a
    traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.decode("latin-1").lower() not in {h.lower() for h in HEADERS}]
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def make_app(contest: Contest, *, secure_cookie: bool = False, open_signup: bool = False) -> Starlette:
    """The pages of ``contest``. ``secure_cookie``: behind TLS (a reverse proxy)."""
    key = contest.db.setting("csrf_key")
    if not key:
        key = secrets.token_hex(32)
        contest.db.set_setting("csrf_key", key)
    site = contest.output / "site"
    site.mkdir(parents=True, exist_ok=True)

    def session(request: Request) -> tuple[str | None, str]:
        """(the author, TEACHER or None; the session's secret)."""
        secret = request.cookies.get(COOKIE, "")
        return contest.db.author_of(secret), secret

    def token(secret: str) -> str:
        return hmac.new(bytes.fromhex(key), secret.encode(), hashlib.sha256).hexdigest()

    def check_token(secret: str, given: Any) -> None:
        if not isinstance(given, str) or not hmac.compare_digest(token(secret), given):
            raise HTTPException(403, "This form has expired or did not come from this site; "
                                     "reload the page and try again.")

    def page(name: str, code: int = 200, **context: Any) -> HTMLResponse:
        html = _pages.get_template(name).render(title=contest.config.name, **context)
        return HTMLResponse(html, status_code=code)

    def author_only(request: Request) -> tuple[str, str]:
        author, secret = session(request)
        if author is None:
            raise HTTPException(403, "Open the link you were given to see your page.")
        if author == TEACHER:
            raise HTTPException(404, "Not found.")
        return author, secret

    def teacher_only(request: Request) -> str:
        author, secret = session(request)
        if author is None:
            raise HTTPException(403, "Open the teacher's link to see this page.")
        if author != TEACHER:
            raise HTTPException(404, "Not found.")
        return secret

    # ----- public ------------------------------------------------------------------------------
    async def home(request: Request) -> Response:
        author, _ = session(request)
        return page("home.html.j2", author=author, teacher=author == TEACHER,
                    leaderboard=await run_in_threadpool(pages.leaderboard, contest),
                    open_signup=open_signup)

    async def login(request: Request) -> Response:
        secret = request.path_params["secret"]
        author = contest.db.author_of(secret)
        if author is None:
            raise HTTPException(404, "This link is not valid: it was mistyped, or replaced by a "
                                     "new one. Ask your teacher for yours.")
        response = RedirectResponse("/teacher" if author == TEACHER else "/me", status_code=303)
        response.set_cookie(COOKIE, secret, httponly=True, samesite="lax", secure=secure_cookie,
                            path="/")
        return response

    async def logout(request: Request) -> Response:
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    # ----- an author's -------------------------------------------------------------------------
    async def me(request: Request) -> Response:
        author, secret = author_only(request)
        return await run_in_threadpool(pages.author_page, contest, author, token(secret),
                                       request.query_params.get("said", ""))

    async def upload(request: Request) -> Response:
        author, secret = author_only(request)
        wait = contest.wait_before_upload(author)
        try:
            form = await request.form(max_files=1, max_fields=4,
                                      max_part_size=contest.limits.upload_bytes)
        except Exception:  # noqa: BLE001 - any malformed form is the sender's mistake
            raise HTTPException(400, "The form could not be read; upload the file again.") from None
        check_token(secret, form.get("csrf"))
        file = form.get("file")
        if file is None or isinstance(file, str) or not file.filename:
            raise HTTPException(400, "Choose a file to upload.")
        if wait:
            return RedirectResponse(f"/me?said=wait{int(wait) + 1}", status_code=303)
        data = await file.read(contest.limits.upload_bytes + 1)
        number = await run_in_threadpool(contest.receive, author, file.filename, data)
        return RedirectResponse(f"/me?said=upload{number}", status_code=303)

    async def my_match(request: Request) -> Response:
        author, _ = author_only(request)
        try:
            match_id = int(request.path_params["match"])
        except ValueError:
            raise HTTPException(404, "Not found.") from None
        view = await run_in_threadpool(pages.match_view, contest, author, match_id)
        if view is None:
            raise HTTPException(404, "Not found.")
        return page("match.html.j2", **view)

    # ----- the teacher's -----------------------------------------------------------------------
    async def teacher(request: Request) -> Response:
        secret = teacher_only(request)
        return page("teacher.html.j2", csrf=token(secret),
                    **await run_in_threadpool(pages.teacher_view, contest),
                    said=request.query_params.get("said", ""))

    async def teacher_action(request: Request) -> Response:
        secret = teacher_only(request)
        form = await request.form(max_files=0, max_fields=5)
        check_token(secret, form.get("csrf"))
        action, author = str(form.get("action", "")), str(form.get("author", ""))
        if action in (SUSPEND, RESTORE, WITHDRAW) and contest.db.is_author(author):
            contest.act(action, author)
            return RedirectResponse(f"/teacher?said={action}", status_code=303)
        if action == REVEAL:
            contest.act(REVEAL)
            return RedirectResponse("/teacher?said=reveal", status_code=303)
        if action == "reissue" and contest.db.is_author(author):
            link = f"{request.base_url}login/{contest.db.issue(author)}"
            return page("message.html.j2", heading=f"A new link for {author}",
                        text="Their old link no longer works. Give them this one:", link=link)
        raise HTTPException(400, "Unknown action.")

    async def download_store(request: Request) -> Response:
        teacher_only(request)
        path = await run_in_threadpool(pages.store_copy, contest)
        return FileResponse(path, filename="tournament.sqlite",
                            background=BackgroundTask(os.unlink, path))

    async def download_site(request: Request) -> Response:
        teacher_only(request)
        data = await run_in_threadpool(pages.zip_folder, site)
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": 'attachment; filename="site.zip"'})

    # ----- open sign-up ------------------------------------------------------------------------
    async def signup(request: Request) -> Response:
        if not open_signup:
            raise HTTPException(404, "Not found.")
        if request.method == "GET":
            return page("signup.html.j2", error="")
        form = await request.form(max_files=0, max_fields=2)
        name = str(form.get("name", "")).strip()
        if contest.db.is_author(name) or name == TEACHER:
            return page("signup.html.j2", code=400, error="That name is taken; choose another.")
        try:
            secret = contest.db.issue(name)
        except Exception as exc:  # noqa: BLE001 - a name not allowed: said on the form
            return page("signup.html.j2", code=400, error=str(exc))
        link = f"{request.base_url}login/{secret}"
        return page("message.html.j2", heading=f"Welcome, {name}",
                    text="Keep this link: it is your way back to your page.", link=link)

    # ----- the API of arena submit -------------------------------------------------------------
    def bearer(request: Request) -> str:
        header = request.headers.get("authorization", "")
        author = contest.db.author_of(header[7:] if header.lower().startswith("bearer ") else "")
        if author is None or author == TEACHER:
            raise HTTPException(403, "Not a valid author's link.")
        return author

    async def api_upload(request: Request) -> Response:
        author = bearer(request)
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > contest.limits.upload_bytes:
            raise HTTPException(413 if length.isdigit() else 411,
                                f"An upload is at most {contest.limits.upload_bytes} bytes.")
        wait = contest.wait_before_upload(author)
        if wait:
            return JSONResponse({"error": f"wait {int(wait) + 1} s before your next upload"},
                                status_code=429, headers={"Retry-After": str(int(wait) + 1)})
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > contest.limits.upload_bytes:
                raise HTTPException(413, "Too large.")
        filename = request.headers.get("x-filename", "bot.tar.gz")
        number = await run_in_threadpool(contest.receive, author, filename, bytes(body))
        return JSONResponse({"id": number})

    async def api_status(request: Request) -> Response:
        author = bearer(request)
        try:
            upload = contest.db.upload(int(request.path_params["upload"]))
        except ValueError:
            upload = None
        if upload is None or upload.author != author:
            raise HTTPException(404, "Not found.")
        return JSONResponse({"id": upload.id, "state": upload.state, "done": upload.state in DONE,
                             "reason": upload.reason, "output": upload.output})

    async def error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        text = exc.detail if isinstance(exc, HTTPException) else "Something went wrong."
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": text}, status_code=status)
        return page("message.html.j2", code=status, heading=f"{status}", text=text, link="")

    routes = [
        Route("/", home), Route("/login/{secret}", login), Route("/logout", logout, methods=["POST"]),
        Route("/me", me), Route("/me/upload", upload, methods=["POST"]),
        Route("/me/match/{match}", my_match),
        Route("/teacher", teacher), Route("/teacher/action", teacher_action, methods=["POST"]),
        Route("/teacher/tournament.sqlite", download_store), Route("/teacher/site.zip", download_site),
        Route("/signup", signup, methods=["GET", "POST"]),
        Route("/api/upload", api_upload, methods=["POST"]),
        Route("/api/uploads/{upload}", api_status),
        Mount("/report", app=StaticFiles(directory=site, html=True, check_dir=False), name="report"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)],
                     exception_handlers={HTTPException: error, Exception: error},
                     max_body_size=contest.limits.upload_bytes + (1 << 16))


__all__ = ["COOKIE", "HEADERS", "make_app", "PlainTextResponse"]
