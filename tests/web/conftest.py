"""Browser tests: headless Debian Chromium driven by selenium against a real
``switchboard serve`` on a loopback port with a temporary data directory.

In CI (``CI=true``) a missing Chromium fails the tests; elsewhere they are skipped with
the reason. Chromium runs ``--headless=new --no-sandbox`` (CI runs as root).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

PORT_LINE = re.compile(r"listening on \S+ port (\d+)")
PHONE = (390, 844)
DESKTOP = (1280, 800)


def _chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not (os.access(browser, os.X_OK) and os.access(driver, os.X_OK)):
        return None
    return browser, driver


def _need_chromium() -> tuple[str, str]:
    found = _chromium()
    if found is not None:
        try:
            import selenium  # noqa: F401
        except ImportError:
            found = None
    if found is None:
        reason = (
            "the browser tests need Debian's chromium and chromium-driver "
            "(apt-get install chromium chromium-driver) and selenium (pip install -e '.[test]')"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: {reason}")
        pytest.skip(reason)
    return found


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the server dies with the test process, so none outlives a test run."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Server:
    """A ``switchboard serve`` child process on 127.0.0.1; its log kept as it grows."""

    def __init__(self, tmp: Path, extra_config: str = "") -> None:
        data = tmp / "data"
        config = tmp / "switchboard.toml"
        # fast claims; many tables from one address (every browser is 127.0.0.1)
        config.write_text(
            "[server]\nscrypt_n = 2\ntables_per_address = 0\ntables_per_name = 0\n"
            'bot_thinking = "threads"\n' + extra_config
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "switchboard", "serve", "--host", "127.0.0.1", "--port", "0",
             "--data", str(data), "--config", str(config), "--log-level", "info"],
            stderr=subprocess.PIPE, text=True, preexec_fn=_die_with_parent,
        )  # fmt: skip
        self.log: list[str] = []
        found = threading.Event()
        self.port = 0

        def drain() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.log.append(line)
                if not found.is_set() and (m := PORT_LINE.search(line)):
                    self.port = int(m.group(1))
                    found.set()
            found.set()

        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(30) or not self.port:
            self.stop()
            raise RuntimeError("the server did not start: " + "".join(self.log))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@contextlib.contextmanager
def serving(tmp: Path, extra_config: str = "") -> Iterator[Server]:
    """A browsers' server for a module, with ``extra_config`` lines of its own; stopped at
    the end, its last log lines printed (shown when a test fails)."""
    _need_chromium()
    srv = Server(tmp, extra_config)
    try:
        yield srv
    finally:
        srv.stop()
        print("server log:", "".join(srv.log[-60:]))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("web")) as srv:
        yield srv


def make_driver(size: tuple[int, int] = PHONE) -> Any:
    """A fresh headless Chromium (its own profile, so its own localStorage) whose
    viewport is ``size`` CSS pixels; a phone size is emulated as a touch screen."""
    browser, driver_path = _need_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", f"--window-size={size[0]},{size[1]}"):  # fmt: skip
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size == PHONE},
    )
    if size == PHONE:
        driver.execute_cdp_cmd(
            "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
        )
    driver.set_script_timeout(20)
    return driver


@pytest.fixture
def browsers() -> Iterator[Callable[..., Any]]:
    """Make browsers (``browsers()`` or ``browsers((1280, 800))``); all quit at the end."""
    made: list[Any] = []

    def make(size: tuple[int, int] = PHONE) -> Any:
        driver = make_driver(size)
        made.append(driver)
        return driver

    try:
        yield make
    finally:
        for driver in made:
            with contextlib.suppress(Exception):
                for entry in driver.get_log("browser"):  # shown when the test fails
                    print("browser:", entry.get("level"), entry.get("message"))
            with contextlib.suppress(Exception):
                driver.quit()


def wait_for(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """Poll ``check`` until it returns something true; fail after ``timeout`` seconds (a
    bound for a hang, not a measure: nothing here asserts how fast anything is)."""
    end = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < end:
        try:
            value = check()
            if value:
                return value
        except Exception as exc:  # the page is redrawing under us
            last = exc
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or check}: {last!r}")
