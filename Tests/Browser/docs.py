#!/usr/bin/env python3
"""The libraries' DocC reference, as a reader gets it: the static site `Packaging/build-docs` writes, served over
loopback and opened in headless Chromium (driven over the DevTools Protocol, as page.py drives it).

Checks that the `UTType` page renders its title, its declaration and its Topics with the groups the page has,
that the landing pages of the three libraries render their titles and the articles they list, and that an
article renders its snippet. Exit status 0 when every check holds; each failed check is printed.

    python3 Tests/Browser/docs.py --site .build-docs/site [--screenshots docs/images]

With --screenshots, the UTType page is saved there as docs-utype.png.
"""

import argparse
import functools
import http.server
import os
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from page import Browser, Checks, browser_arguments  # noqa: E402


def serve(directory):
    """A static file server on a free loopback port, in a thread; (server, base URL)."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

    handler = functools.partial(Quiet, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", required=True, help="the directory Packaging/build-docs wrote")
    browser_arguments(parser, "a directory to save the UTType page's screenshot in")
    options = parser.parse_args()
    check = Checks()

    server, base = serve(os.path.abspath(options.site))
    with tempfile.TemporaryDirectory(prefix="uti-docs-") as profile:
        browser = Browser(options.chromium, profile)
        try:
            title = "document.querySelector('h1') && document.querySelector('h1').textContent.trim()"
            headings = "Array.from(document.querySelectorAll('h2, h3')).map(h => h.textContent.trim())"
            text = "document.body.innerText"

            # The front door: / and /documentation/ list the five libraries, and a library's link opens its page.
            for door in ["/", "/documentation/"]:
                browser.open(base + door)
                check(browser.wait_until("document.querySelectorAll('#libraries a.library').length === 5"),
                      f"{door} lists the five libraries")
            # Followed by its address (a click would navigate while the evaluation that made it still runs).
            link = browser.evaluate("document.querySelector('#libraries a.library[href$=\"appcontainers/\"]').href")
            check(bool(link), "the front door links AppContainers")
            browser.open(link or base)
            check(browser.wait_until(f"({title}) === 'AppContainers'"), "the front door's link opens AppContainers' page")

            browser.open(base + "/documentation/uniformtypeidentifiers/uttype/")
            check(browser.wait_until(f"({title}) === 'UTType'"), "the UTType page renders its title")
            shown = browser.evaluate(headings) or []
            check("Topics" in shown, f"the UTType page has its Topics (headings: {shown[:12]})")
            for group in ["Initializers", "Instance Properties", "Instance Methods", "Type Properties"]:
                check(group in shown, f"UTType's Topics have the group {group}")
            body = browser.evaluate(text) or ""
            check("struct UTType" in body, "the UTType page shows its declaration")
            check("A type of data" in body, "the UTType page shows its summary")
            if options.screenshots:
                os.makedirs(options.screenshots, exist_ok=True)
                browser.screenshot(os.path.join(options.screenshots, "docs-utype.png"))

            for module, article in [("uniformtypeidentifiers", "The type system"), ("fileidentification", "Identifying files"),
                                    ("appcontainers", "Apps and their containers"), ("documentrouting", "Routing"),
                                    ("containersync", "Syncing iCloud containers")]:
                browser.navigate(f"{base}/documentation/{module}/")
                check(browser.wait_until(f"({title}) && ({title}).length > 0"), f"the {module} landing page renders its title")
                check(browser.wait_until(f"({text}).includes({article!r})"), f"the {module} landing page lists the article {article!r}")

            browser.navigate(f"{base}/documentation/fileidentification/")
            check(browser.wait_until(f"({text}).includes('identify(data: uploadedBytes, filename: uploadedName)')"),
                  "the FileIdentification landing page renders the upload handler's snippet")
        finally:
            browser.close()
            server.shutdown()
    return check.exit_status("the reference renders in Chromium")


if __name__ == "__main__":
    sys.exit(main())
