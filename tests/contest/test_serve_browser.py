"""The contest server in a real browser (issue 46): a student opens their link, uploads a bot with
a syntax error and reads the traceback, uploads the fix, sees it admitted and its first matches,
with their stderr and the replay; another student cannot open those pages; the teacher suspends
and restores a bot."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.reports.browser import Browser

from .conftest import NOISY_BOT, Server

BROKEN = "from protocol.sdk import run\nrun(lambda o, l: l[0]\n"


def until(browser: Browser, text: str, timeout: float = 120, reload: bool = True) -> str:
    """The page's source once it holds ``text`` (reloading it meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        source = browser.driver.page_source
        if text in source:
            return source
        assert time.monotonic() < deadline, f"{text!r} never appeared: {source[:3000]}"
        time.sleep(1)
        if reload:
            browser.driver.refresh()


def submit(browser: Browser, button: Any, said: str = "") -> None:
    """Click a form's ``button`` and wait for the server's answer, a new page whose address
    says ``said=...`` (a page opened before it would cancel the form's post)."""
    before = browser.driver.current_url
    button.click()
    assert browser.wait(f"return location.href !== {json.dumps(before)} && "
                        f"location.search.indexOf({json.dumps('said=' + said)}) >= 0;", timeout=60), \
        browser.driver.current_url


def upload(browser: Browser, file: Path) -> None:
    from selenium.webdriver.common.by import By
    browser.driver.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(file))
    submit(browser, browser.driver.find_element(By.CSS_SELECTOR, "form.upload button[type=submit]"))


def login(browser: Browser, link: str) -> None:
    browser.driver.get("about:blank")
    browser.driver.delete_all_cookies()
    browser.driver.get(link)


@pytest.mark.timeout(300)
def test_a_student_hands_in_fixes_and_reads_their_matches(server: Server, browser: Browser,
                                                           tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    links = server.invite("ana", "bob")
    login(browser, links["ana"])
    assert browser.driver.current_url.endswith("/me")
    (tmp_path / "bot.py").write_text(BROKEN)
    upload(browser, tmp_path / "bot.py")
    page = until(browser, "SyntaxError")                             # the traceback, on her page
    assert "refused" in page
    (tmp_path / "bot.py").write_text(NOISY_BOT.format(who="ana"))
    upload(browser, tmp_path / "bot.py")
    until(browser, "/me/match/")                                      # admitted, and playing
    assert "admitted" in browser.driver.page_source
    first = browser.driver.find_element(By.CSS_SELECTOR, "a[href^='/me/match/']")
    match_page = first.get_attribute("href")
    first.click()
    until(browser, "SECRET-DEBUG-LINE of ana", reload=False)          # her bot's stderr
    browser.driver.find_element(By.PARTIAL_LINK_TEXT, "Step through the match").click()
    browser.wait("var s = document.querySelector('.match-status');"
                 "return !!document.querySelector('.replay') && (!s || s.hidden);", timeout=30)
    assert "SECRET-DEBUG-LINE" not in browser.driver.page_source      # the public replay
    assert not [e for e in browser.errors() if "Content Security Policy" in e], browser.errors()

    # bob cannot open ana's match, nor the teacher's page
    login(browser, links["bob"])
    browser.driver.get(match_page)
    assert "404" in browser.driver.title and "SECRET" not in browser.driver.page_source
    browser.driver.get(server.url + "teacher")
    assert "404" in browser.driver.title

    # the teacher suspends ana, then restores her
    login(browser, server.teacher)
    assert browser.driver.current_url.endswith("/teacher")
    for action, state in (("suspend", "suspended"), ("restore", "current")):
        row = browser.driver.find_element(By.XPATH, "//tr[td[1][normalize-space()='ana']]")
        submit(browser, row.find_element(By.CSS_SELECTOR, f"button[value='{action}']"), said=action)
        until(browser, f"version 1, {state}")
