"""A headless Chromium driven through chromedriver's WebDriver HTTP API, with
only the standard library (urllib): open a page, run script in it, read its
console, take a screenshot.

Debian's chromium and chromium-driver (utils/bootstrap.sh installs them).
Chromium starts with the flags that keep it off the network (the test machine
has none; without them start-up stalls on it) and a fresh profile.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio"]
# A loaded machine starts Chromium slowly; nothing here measures time.
TIMEOUT = 300


def find_chromium():
    for path in ("/usr/lib/chromium/chromium", shutil.which("chromium") or ""):
        if path and os.access(path, os.X_OK):
            return path
    raise RuntimeError("chromium is not installed (utils/bootstrap.sh installs it)")


def find_chromedriver():
    path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.access(path, os.X_OK):
        raise RuntimeError("chromedriver is not installed (package chromium-driver; utils/bootstrap.sh)")
    return path


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Browser:
    def __init__(self, width=1200, height=900):
        self.profile = tempfile.mkdtemp(prefix="efsan-view-chromium-")
        self.driver = None
        self.session = None
        for attempt in range(5):  # another process may take the port first
            self.port = _free_port()
            self.log = open(os.path.join(self.profile, "chromedriver.log"), "w")
            self.driver = subprocess.Popen([find_chromedriver(), "--port=%d" % self.port],
                                           stdout=self.log, stderr=subprocess.STDOUT)
            if self._wait_ready():
                break
            self.driver.kill()
            self.driver.wait()
            self.driver = None
        if self.driver is None:
            raise RuntimeError("chromedriver did not start")
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": find_chromium(),
                "args": CHROMIUM_FLAGS + ["--user-data-dir=" + os.path.join(self.profile, "profile"),
                                          "--window-size=%d,%d" % (width, height)]}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]

    def _wait_ready(self):
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.driver.poll() is not None:
                return False
            try:
                self._call("GET", "/status", timeout=5)
                return True
            except (OSError, ValueError):
                time.sleep(0.2)
        return False

    def _call(self, method, path, body=None, timeout=TIMEOUT):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError("webdriver %s %s: %s" % (method, path, e.read().decode(errors="replace")[:500]))

    def _session_call(self, method, path, body=None):
        return self._call(method, "/session/%s%s" % (self.session, path), body)

    def open(self, path):
        self._session_call("POST", "/url", {"url": "file://" + os.path.abspath(path)})

    def run(self, script, *args):
        """Runs `script` (a function body) in the page and returns its value."""
        return self._session_call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def console(self):
        """The console entries since the last call: [{level, message, source}]."""
        return self._session_call("POST", "/se/log", {"type": "browser"})

    def screenshot(self, png_path, full_page=True):
        if full_page:
            # Let the window hold the whole page, so the PNG shows all of it.
            size = self.run("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            self._session_call("POST", "/window/rect", {"width": max(size[0], 1200),
                                                        "height": min(size[1] + 120, 16000)})
        data = base64.b64decode(self._session_call("GET", "/screenshot"))
        with open(png_path, "wb") as f:
            f.write(data)
        return len(data)

    def close(self):
        try:
            if self.session:
                self._call("DELETE", "/session/%s" % self.session, timeout=60)
        except (OSError, RuntimeError):
            pass
        if self.driver:
            self.driver.terminate()
            try:
                self.driver.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.driver.kill()
                self.driver.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
