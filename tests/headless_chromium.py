"""A real headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``).

Why a pipe and not Selenium or a WebSocket: Chromium reads the protocol's JSON commands from its file descriptor 3
and writes answers and events to descriptor 4, each message ended by a NUL byte. Two ``os.pipe()`` s and a reader
thread are the whole transport: no chromedriver, no WebSocket library, no port to find.

Used by the display's browser test and ``bench/bench_display_browser.py``. :func:`find_chromium` is None when no
Chromium is installed (Debian's ``chromium`` package; ``./dev`` installs it), and the tests say so when they skip.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class ChromiumError(RuntimeError):
    pass


class Chromium:
    """One headless browser with one page (a tab), closed by :meth:`close` (or the ``with`` block)."""

    def __init__(self, width: int = 1280, height: int = 900, timeout: float = 30.0):
        binary = find_chromium()
        if binary is None:
            raise ChromiumError("no Chromium installed (Debian: apt-get install chromium)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="chromium-profile-")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        # Moved above 10 first, so that putting them on 3 and 4 in the child cannot overwrite one with the other.
        high_in = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
        high_out = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
        os.close(to_browser_r)
        os.close(from_browser_w)

        def on_3_and_4():
            os.dup2(high_in, 3)
            os.dup2(high_out, 4)

        self.log = open(os.path.join(self.profile, "chromium.log"), "wb")
        args = [binary, "--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-dev-shm-usage", f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                # a root user (CI containers) has no user namespaces for the sandbox
                *(["--no-sandbox"] if os.geteuid() == 0 else []), "about:blank"]
        try:
            self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                            preexec_fn=on_3_and_4, pass_fds=(3, 4, high_in, high_out))
        finally:
            os.close(high_in)
            os.close(high_out)
        self._to_browser = to_browser_w
        self._from_browser = from_browser_r
        self._next_id = 0
        self._answers: dict[int, dict] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._reader = threading.Thread(target=self._read, name="chromium-pipe", daemon=True)
        self._reader.start()
        self.session: str | None = None
        try:
            target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        except Exception:
            self.close()
            raise

    # --- the pipe ---------------------------------------------------------------------------------------------
    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._changed:
                        self._answers[message["id"]] = message
                        self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def send(self, method: str, params: dict[str, Any] | None = None, *, session: str | None = None,
             timeout: float | None = None) -> dict[str, Any]:
        """One protocol command; its result (raises :class:`ChromiumError` with the browser's message)."""
        with self._changed:
            self._next_id += 1
            number = self._next_id
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        limit = self.timeout if timeout is None else timeout
        with self._changed:
            if not self._changed.wait_for(lambda: number in self._answers or self._closed, limit):
                raise ChromiumError(f"Chromium did not answer {method} within {limit:g} s")
            if number not in self._answers:
                raise ChromiumError(f"Chromium closed its pipe during {method} (log: {self.log.name})")
            answer = self._answers.pop(number)
        if "error" in answer:
            raise ChromiumError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    # --- the page ---------------------------------------------------------------------------------------------
    def evaluate(self, expression: str, *, timeout: float | None = None) -> Any:
        """The value of a JavaScript expression in the page (a promise is waited for), as JSON."""
        limit = self.timeout if timeout is None else timeout
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True, "timeout": int(limit * 1000)},
                           session=self.session, timeout=limit + 5)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise ChromiumError(f"the page's script failed: {text}")
        return result["result"].get("value")

    def open(self, url: str, ready: str = "document.readyState === 'complete'") -> None:
        """Load ``url`` and wait until the expression ``ready`` holds in it (checked on the page's own events)."""
        self.send("Page.navigate", {"url": url}, session=self.session)
        self.evaluate("new Promise(ok => { const check = () => { if (" + ready + ") ok(true); };"
                      " document.addEventListener('readystatechange', check); window.addEventListener('load', check);"
                      " check(); })")

    def screenshot(self, path: str) -> None:
        import base64
        data = self.send("Page.captureScreenshot", {"format": "png"}, session=self.session)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    # --- the end ----------------------------------------------------------------------------------------------
    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("Browser.close", timeout=5)
            except (ChromiumError, OSError):
                pass
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)  # the browser gone, its end of the pipe is closed: the read ends
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def wait_for_state(browser: Chromium, state: str, shown_event: str, condition: str, what: str, limit: float) -> dict:
    """The page's state (the JavaScript expression ``state``) once ``condition`` (JavaScript over ``s``, that
    state) holds: looked at now and after each ``shown_event`` the page dispatches on its document (an update
    drawn); fails after ``limit`` seconds saying what it waited for and what the page showed."""
    script = ("new Promise((ok, fail) => { const look = () => { const s = " + state + "; if (" + condition +
              f") {{ document.removeEventListener('{shown_event}', look); ok(s); }} }};"
              f" document.addEventListener('{shown_event}', look); look();"
              f" setTimeout(() => fail(new Error({json.dumps(f'waited {limit:g} s for {what}: ')} + "
              f"JSON.stringify({state}))), {int(limit * 1000)}); }})")
    return browser.evaluate(script, timeout=limit + 5)
