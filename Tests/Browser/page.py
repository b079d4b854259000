#!/usr/bin/env python3
"""The page at `/`, tested in a real browser: headless Chromium driven over the Chrome DevTools Protocol.

Starts uti-server on a free port, opens `/` in Chromium (talking to it over --remote-debugging-pipe, with nothing
but Python's standard library), chooses three files in the page's file input (one of them a PNG named `.txt`),
and checks what the page shows for each: type, MIME type, the conformance chain up to public.item, the evidence,
and the mark on the lying name. Then opens a type in the type browser and checks its tags, parents and subtypes.
Exit status 0 when every check holds; each failed check is printed.

    python3 Tests/Browser/page.py --server .build/debug/uti-server [--screenshots docs/images]

With --screenshots, the identification view and the type browser are saved there as PNG files.
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
import struct


class Browser:
    """Chromium with the DevTools Protocol on a pipe: commands written to its fd 3, answers read from its fd 4."""

    def __init__(self, executable, profile):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        arguments = [
            executable, "--headless=new", "--remote-debugging-pipe", f"--user-data-dir={profile}",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
            "--disable-background-networking", "--disable-sync", "--hide-scrollbars", "--mute-audio",
            "--window-size=1280,900", "--font-render-hinting=none", "about:blank",
        ]
        if os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root.
        # The pipe ends go to the fds Chromium expects: 3 for what it reads, 4 for what it writes.
        self.process = subprocess.Popen(
            ["/bin/sh", "-c", f'exec "$0" "$@" 3<&{to_browser_read} 4>&{from_browser_write}'] + arguments,
            pass_fds=(to_browser_read, from_browser_write), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.next_id = 0
        self.buffer = b""
        self.events = []
        self.session = None

    def close(self):
        try:
            self.command("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.to_browser)
        os.close(self.from_browser)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def command(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(index)
            self.events.append(self._read_message(deadline))

    def open(self, url):
        target = self.command("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.command("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.command("Page.enable")
        self.command("Runtime.enable")
        self.command("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.navigate(url)

    def navigate(self, url):
        self.events.clear()
        self.command("Page.navigate", {"url": url})
        self.wait_for_event("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.command("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, expression, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.05)
        return False

    def choose_files(self, selector, paths):
        document = self.command("DOM.getDocument")["root"]["nodeId"]
        node = self.command("DOM.querySelector", {"nodeId": document, "selector": selector})["nodeId"]
        self.command("DOM.setFileInputFiles", {"nodeId": node, "files": paths})

    def width(self, width, height=900):
        """Lays the page out `width` CSS pixels wide (390: a phone's)."""
        self.command("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})

    def screenshot(self, path, width=1200):
        self.width(width)
        height = self.evaluate("Math.ceil(document.documentElement.scrollHeight)")
        self.width(width, min(max(height, 600), 2400))
        data = self.command("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        self.width(1200)


def png(width, height):
    """A small real PNG: an RGB gradient."""
    rows = b"".join(b"\0" + bytes(value for x in range(width) for value in (x * 255 // width, y * 255 // height, 160))
                    for y in range(height))

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def start_server(binary):
    server = subprocess.Popen([binary, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    if "listening on" not in line:
        server.kill()
        raise RuntimeError(f"uti-server did not start: {line!r}")
    return server, line.strip().rsplit(" ", 1)[-1]


class Checks:
    """Checks as they are made: each printed as it holds or fails, the failures kept for the exit status."""

    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        print(("ok    " if condition else "FAIL  ") + what)
        if not condition:
            self.failures.append(what)

    def exit_status(self, success):
        if self.failures:
            print(f"{len(self.failures)} check(s) failed", file=sys.stderr)
            return 1
        print(success)
        return 0


def browser_arguments(parser, screenshots):
    """The options every browser test takes: which Chromium, and where to save screenshots."""
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    parser.add_argument("--screenshots", help=screenshots)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the uti-server binary")
    browser_arguments(parser, "a directory to save the page's screenshots in")
    options = parser.parse_args()
    check = Checks()

    with tempfile.TemporaryDirectory(prefix="uti-page-") as work:
        files = {
            "photo.txt": png(48, 32),  # a PNG whose name says text
            "notes.md": b"# Shopping\n\n- bread\n- *good* coffee\n\nSee [the list](https://example.org/list).\n",
            "report.pdf": b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
                          b"trailer << /Root 1 0 R >>\n%%EOF\n",
        }
        for name, content in files.items():
            with open(os.path.join(work, name), "wb") as file:
                file.write(content)
        server, base = start_server(options.server)
        browser = Browser(options.chromium, os.path.join(work, "profile"))
        try:
            browser.open(base + "/")
            check(browser.evaluate("document.title") == "uti: what is this file?", "the page loads, with its title")
            check(browser.evaluate("getComputedStyle(document.getElementById('drop')).borderStyle") == "dashed",
                  "its style sheet applies (served by the server, allowed by its policy)")

            browser.choose_files("#files", [os.path.join(work, name) for name in files])
            done = browser.wait_until("document.querySelectorAll('#results li.result[data-chain]').length === 3")
            check(done, "three files chosen: three results, each with its conformance chain")
            results = browser.evaluate("""Array.from(document.querySelectorAll('#results li.result')).map(item => ({
                name: item.querySelector('.name').textContent, identifier: item.dataset.identifier,
                mismatch: item.dataset.mismatch, chain: item.dataset.chain || '', text: item.innerText,
                lies: item.classList.contains('lies'), badge: (item.querySelector('.badge.lie') || {}).textContent || '',
                pronom: Array.from(item.querySelectorAll('.pronom a')).map(link => [link.textContent, link.getAttribute('href')])}))""") or []
            shown = {result["name"]: result for result in results}
            photo, notes, report = shown.get("photo.txt", {}), shown.get("notes.md", {}), shown.get("report.pdf", {})
            # The page asks for PRONOM's formats too: the type is PNG's version where one matched, within public.png.
            photo_chain = photo.get("chain", "").split()
            check(photo.get("identifier") in ("public.png",) or photo_chain[1:2] == ["public.png"],
                  f"photo.txt is a PNG (page says {photo.get('identifier')})")
            pronom_links = photo.get("pronom") or []
            check(pronom_links and pronom_links[0][0].startswith("fmt/")
                  and pronom_links[0][1] == "https://www.nationalarchives.gov.uk/PRONOM/" + pronom_links[0][0],
                  f"photo.txt: its PRONOM format, linked to its record ({pronom_links})")
            check(photo.get("lies") and "name lies" in photo.get("badge", ""), "photo.txt carries the mark of a lying name")
            check("image/png" in photo.get("text", "") and ("PNG image" in photo.get("text", "") or "Portable Network Graphics" in photo.get("text", "")),
                  "photo.txt: its MIME type and description (PNG's, or its PRONOM version's)")
            check(photo_chain[-4:] == ["public.png", "public.image", "public.data", "public.item"],
                  f"photo.txt: the chain ends public.png → public.image → public.data → public.item (page: {photo.get('chain')})")
            check("content-overrules-name" in photo.get("text", "") and "public.plain-text" in photo.get("text", ""),
                  "photo.txt: the evidence (the rule, and what the name said)")
            check(notes.get("identifier") == "net.daringfireball.markdown" and notes.get("mismatch") == "false",
                  f"notes.md is Markdown, name and content agreeing (page says {notes.get('identifier')})")
            check(notes.get("chain", "").endswith("public.item") and "public.text" in notes.get("chain", ""),
                  f"notes.md: its chain reaches public.item through public.text ({notes.get('chain')})")
            check("com.adobe.pdf" in report.get("chain", "").split() and not report.get("lies"), f"report.pdf is a PDF ({report.get('identifier')})")
            check([result["name"] for result in results] == list(files), f"the results in the order the files were chosen: {[r['name'] for r in results]}")
            check(browser.evaluate("document.querySelector('#results li.result').dataset.verdict") is not None, "each result says its verdict")
            # A file without a name, and one whose name proposes no type: identified by content, not "agreeing".
            browser.evaluate("identifyFiles([new File(['just some words\\n'], ''), new File(['# Notes\\n'], 'NOTES-x')])")
            check(browser.wait_until("document.querySelectorAll('#results li.result[data-chain]').length === 5"), "two more results")
            verdicts = browser.evaluate("Array.from(document.querySelectorAll('#results li.result')).slice(0, 2).map(item => "
                                        "[item.dataset.verdict, item.querySelector('h2').innerText])") or []
            check(len(verdicts) == 2 and all(verdict == "content-only" and "agree" not in text for verdict, text in verdicts),
                  f"a nameless file and a name that proposes nothing are not shown as agreeing: {verdicts}")
            check(browser.evaluate("document.querySelector('#results li.result:nth-child(3) .name').textContent") == "photo.txt",
                  "a new batch goes above the earlier one, which keeps its order")
            # At a phone's width nothing runs off a card.
            browser.width(390, 844)
            overflowing = browser.evaluate("Array.from(document.querySelectorAll('#results li.result')).filter(item => "
                                           "item.scrollWidth > item.clientWidth + 1 || item.getBoundingClientRect().right > window.innerWidth + 1)"
                                           ".map(item => item.querySelector('.name').textContent)")
            check(overflowing == [], f"at 390 px every result fits its card and the screen (overflowing: {overflowing})")
            if options.screenshots:
                browser.evaluate("window.scrollTo(0, 0)")
                browser.screenshot(os.path.join(options.screenshots, "service-page-identify-phone.png"), width=390)
            browser.width(1200)
            if options.screenshots:
                browser.evaluate("window.scrollTo(0, 0)")
                browser.screenshot(os.path.join(options.screenshots, "service-page-identify.png"))

            # The type browser: a search, then a type opened from the list.
            browser.evaluate("location.hash = 'types'")
            browser.evaluate("document.getElementById('type-query').value = 'image'; "
                             "document.getElementById('type-search').requestSubmit()")
            check(browser.wait_until("Number(document.body.dataset.typeResults || 0) > 10"), "searching 'image' lists types")
            check(browser.evaluate("Array.from(document.querySelectorAll('#type-list a')).some(a => a.dataset.type === 'public.png')"),
                  "public.png is among them")
            browser.evaluate("document.querySelector('#type-list a[data-type=\"public.image\"]').click()")
            check(browser.wait_until("document.getElementById('type-detail').dataset.type === 'public.image' && "
                                     "document.getElementById('type-subtypes') !== null"), "public.image opens from the list")
            detail = browser.evaluate("""({text: document.getElementById('type-detail').innerText,
                parents: Array.from(document.querySelectorAll('#type-parents a')).map(a => a.dataset.type),
                subtypes: Array.from(document.querySelectorAll('#type-subtypes a')).map(a => a.dataset.type)})""") or {}
            check(detail.get("parents") == ["public.data", "public.content"], f"public.image's parents: {detail.get('parents')}")
            check({"public.png", "public.jpeg"} <= set(detail.get("subtypes", [])), "its direct subtypes include public.png and public.jpeg")
            # A type link in the detail opens that type.
            browser.evaluate("document.querySelector('#type-subtypes a[data-type=\"public.png\"]').click()")
            check(browser.wait_until("document.getElementById('type-detail').dataset.type === 'public.png'"), "a subtype's link opens it")
            png_text = browser.evaluate("document.getElementById('type-detail').innerText") or ""
            check("public.filename-extension\tpng" in png_text and "public.mime-type\timage/png" in png_text,
                  "public.png's tags: its extension and MIME type")
            # The main box finds types by their tags too, best first; a search that finds nothing clears the detail.
            browser.evaluate("document.getElementById('type-query').value = 'docx'; "
                             "document.getElementById('type-search').requestSubmit()")
            check(browser.wait_until("document.querySelector('#type-list a') !== null && document.querySelector('#type-list a').dataset.type "
                                     "=== 'org.openxmlformats.wordprocessingml.document'"), "searching 'docx' lists the Word type first")
            browser.evaluate("document.getElementById('type-query').value = 'no-such-type-anywhere'; "
                             "document.getElementById('type-search').requestSubmit()")
            check(browser.wait_until("document.body.dataset.typeResults === '0' && "
                                     "document.getElementById('type-detail').dataset.type === undefined && "
                                     "document.getElementById('type-detail').innerText.trim() === ''"),
                  "a search with no result clears the previous type's detail")
            if options.screenshots:
                browser.evaluate("document.getElementById('type-query').value = 'jpeg'; "
                                 "document.getElementById('type-search').requestSubmit()")
                browser.wait_until("document.querySelector('#type-list a[data-type=\"public.jpeg\"]') !== null")
                browser.evaluate("location.hash = 'type=public.jpeg'")
                browser.wait_until("document.getElementById('type-detail').dataset.type === 'public.jpeg' && "
                                   "document.getElementById('type-subtypes') !== null")
                browser.screenshot(os.path.join(options.screenshots, "service-page-types.png"))
        finally:
            browser.close()
            server.terminate()
            server.wait(timeout=10)

    return check.exit_status("the page works in Chromium")


if __name__ == "__main__":
    sys.exit(main())
