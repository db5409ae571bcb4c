"""A real headless Chromium for the report tests, driven by Selenium through the system chromedriver.

No browser is downloaded: the Debian ``chromium`` and ``chromium-driver`` packages are used as they
are. Without them (or without ``selenium``) the browser tests are skipped on a developer's machine
and fail under CI (``CI`` set), where ``.ci/run`` installs them.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--force-color-profile=srgb",
)
DESKTOP = (1280, 900)
PHONE = (390, 844)


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    pytest.skip(reason)


class Browser:
    """One Chromium; pages are opened from ``file://`` and checked for console errors."""

    def __init__(self) -> None:
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            unavailable("the selenium package is not installed (pip install selenium)")
        binary = _find("chromium", "chromium-browser")
        driver = _find("chromedriver")
        if binary is None or driver is None:
            unavailable("Debian's chromium and chromium-driver are not installed")
        self.profile = tempfile.mkdtemp(prefix="arena-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(driver), options=options)
        self.driver.set_page_load_timeout(30)
        self.size(*DESKTOP)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def size(self, width: int, height: int) -> None:
        self.driver.set_window_size(width, height)

    def open(self, path: Path, fragment: str = "") -> None:
        """Open a page (``fragment``: "?match=3#step=2", "#end"); on the replay page, wait until
        its record has loaded (records load on demand, as scripts) or it said why not."""
        self.console()  # forget what earlier pages said
        self.driver.get("about:blank")
        self.driver.get(path.resolve().as_uri() + fragment)
        self.wait("var s = document.querySelector('.match-status');"
                  "return !s || (window.Arena && Arena.viewer) || !/Loading/.test(s.textContent);")

    def wait(self, script: str, timeout: float = 10.0) -> Any:
        """Until ``script`` returns something true; that value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(script)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.05)

    def console(self) -> list[dict[str, Any]]:
        return self.driver.get_log("browser")

    def errors(self) -> list[str]:
        """Console errors and uncaught exceptions since the last call."""
        return [e["message"] for e in self.console() if e.get("level") == "SEVERE"]

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def css(self, selector: str):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def keys(self, *keys: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key)
        chain.perform()

    def no_alert(self) -> bool:
        from selenium.common.exceptions import NoAlertPresentException
        try:
            _ = self.driver.switch_to.alert  # raises when no alert is open
        except NoAlertPresentException:
            return True
        return False

    def screenshot(self, target: Path, width: int | None = None) -> Path:
        """The whole page (the window grows to the page's height, up to 8,000 px)."""
        before = self.driver.get_window_size()
        w = width or before["width"]
        self.size(w, before["height"])
        height = self.js("return Math.ceil(document.documentElement.scrollHeight)")
        self.size(w, max(400, min(int(height), 8000)))
        time.sleep(0.15)
        self.driver.save_screenshot(str(target))
        self.size(before["width"], before["height"])
        return target
