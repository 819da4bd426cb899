#!/usr/bin/env python3
"""The page `prune draw --format html` writes, in a real headless Chromium.

Generates the 27-leaf tree of docs/TEACHING.md with the real binary, draws alpha-beta's search
as one HTML page, opens it (file://) through chromedriver's WebDriver HTTP interface, reads the
step counter and the root's mark (its card's class), presses ArrowRight, and checks that both
changed; then clicks "last" and checks the counter reads the run's end.

Only the Python standard library is used. Without chromedriver and chromium the test is skipped
with a message (exit 0); any other trouble fails it (exit 1).

Usage: tests/browser/html_steps.py [PATH/TO/prune]   (default: target/debug/prune)
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# This machine's closed network refuses Chromium's background connections: switch them off.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
]


def skip(why):
    print(f"skipping the browser test: {why}")
    sys.exit(0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few WebDriver commands the test needs, over HTTP."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.read().decode(errors='replace')}") from e

    def wait_ready(self, deadline):
        while time.time() < deadline:
            try:
                if self.call("GET", "/status").get("ready"):
                    return
            except (OSError, RuntimeError):
                pass
            time.sleep(0.1)
        raise RuntimeError("chromedriver did not start")

    def start(self, chromium, profile):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": CHROMIUM_ARGS + [f"--user-data-dir={profile}"],
            },
        }}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path):
        return f"/session/{self.session}{path}"

    def open(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def find(self, css):
        found = self.call("POST", self.s("/element"), {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def text(self, css):
        return self.call("GET", self.s(f"/element/{self.find(css)}/text"))

    def attribute(self, css, name):
        return self.call("GET", self.s(f"/element/{self.find(css)}/attribute/{name}"))

    def click(self, css):
        self.call("POST", self.s(f"/element/{self.find(css)}/click"), {})

    def press(self, key):
        actions = {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]}
        self.call("POST", self.s("/actions"), actions)

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", self.s(""))
            except (OSError, RuntimeError):
                pass


ARROW_RIGHT = "\ue014"
# The root's card in the figure shown.
ROOT_CARD = '#steps > figure:not([hidden]) rect[data-node="0"]'


def check(cond, what):
    if not cond:
        print(f"browser test FAILED: {what}")
        sys.exit(1)


def main():
    prune = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "target/debug/prune"
    check(prune.exists(), f"{prune} not found: build it first (cargo build)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        skip("chromium and chromedriver are not installed "
             "(Debian: apt-get install chromium chromium-driver)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tree, page = tmp / "ex42.ron", tmp / "steps.html"
        subprocess.run([prune, "gen", "uniform", "-b", "3", "-d", "3", "--order", "random",
                        "--seed", "42", "-o", tree], check=True)
        subprocess.run([prune, "draw", tree, "--run", "alphabeta", "--format", "html",
                        "-o", page], check=True)
        port = free_port()
        proc = subprocess.Popen([driver, f"--port={port}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wd = WebDriver(port)
        try:
            wd.wait_ready(time.time() + 20)
            wd.start(chromium, tmp / "profile")
            wd.open(page.as_uri())
            before = (wd.text("#counter"), wd.attribute(ROOT_CARD, "class"))
            print(f"before →: {before[0]!r}, root {before[1]!r}")
            check(before[0].startswith("step 0 of "), f"the page opens at step 0: {before[0]!r}")
            wd.press(ARROW_RIGHT)
            after = (wd.text("#counter"), wd.attribute(ROOT_CARD, "class"))
            print(f"after →:  {after[0]!r}, root {after[1]!r}")
            check(after[0].startswith("step 1 of "), f"→ moves to step 1: {after[0]!r}")
            check(after[1] != before[1], f"the root's mark changes: {before[1]!r} → {after[1]!r}")
            check("current" in after[1], f"step 1 enters the root: {after[1]!r}")
            check(wd.text("#narration") != "", "the step is narrated")
            wd.click("#last")
            end = wd.text("#counter")
            total = end.split(" of ")[1].split(" ")[0]
            check(end.startswith(f"step {total} of {total}"), f"last goes to the end: {end!r}")
        finally:
            wd.quit()
            proc.terminate()
            proc.wait(timeout=10)
    print("browser test passed")


if __name__ == "__main__":
    main()
