"""What the browser suite and the bench need to know about a built site: its pages, their language and
their Markdown source, a local web server for it, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import re
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

LANGUAGES = ("en", "ru")  # en is the default language, at the site root; ru lives under /ru/
OTHER_LANGUAGE = {"en": "ru", "ru": "en"}

# Debian's browser, never a downloaded one. The flags keep Chromium from calling Google hosts on start.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Folders of the built site that hold no reader pages.
_NOT_PAGES = {"assets", "pagefind", "search"}


@dataclass(frozen=True)
class Page:
    path: str  # URL path below the site root: "" (landing), "second-order/", "ru/second-order/"
    lang: str

    @property
    def twin(self) -> str:
        """The same page in the other language."""
        return self.path[3:] if self.lang == "ru" else "ru/" + self.path

    @property
    def name(self) -> str:
        return "/" + self.path

    def source(self) -> Path | None:
        """The Markdown file this page is built from, if it is Markdown (notebooks are not)."""
        base = self.path[3:] if self.lang == "ru" else self.path
        base = base.rstrip("/")
        suffix = ".ru.md" if self.lang == "ru" else ".md"
        for candidate in (
            [DOCS / f"{base}{suffix}", DOCS / base / f"index{suffix}"] if base else [DOCS / f"index{suffix}"]
        ):
            if candidate.is_file():
                return candidate
        return None


def discover_pages(site_dir: Path) -> list[Page]:
    """Every reader page of the built site (each `index.html` outside assets and the search bundle)."""
    pages = []
    for html in sorted(site_dir.rglob("index.html")):
        rel = html.relative_to(site_dir).parent.as_posix()
        rel = "" if rel == "." else rel + "/"
        if rel.split("/", 1)[0] in _NOT_PAGES:
            continue
        pages.append(Page(rel, "ru" if rel.startswith("ru/") or rel == "ru/" else "en"))
    return pages


_FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?=\S)[^$\n]+?(?<=\S)\$(?!\d)", re.DOTALL)


def markdown_has_math(source: Path) -> bool:
    """True if the Markdown has a `$...$` or `$$...$$` formula outside code."""
    text = _INLINE_CODE.sub("", _FENCE.sub("", source.read_text(encoding="utf-8")))
    return bool(_MATH.search(text))


_COMPRESSIBLE = (
    ".html",
    ".css",
    ".js",
    ".json",
    ".svg",
    ".xml",
    ".txt",
    ".pf_meta",
    ".pagefind",
    ".pf_fragment",
    ".pf_index",
)


class _Handler(http.server.SimpleHTTPRequestHandler):
    """A static host like the one the site is published on (gzip for text), silent in the test log."""

    gzip_enabled = False

    def log_message(self, *args):  # noqa: D401 - quiet
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        if not self.gzip_enabled or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().send_head()
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # the redirect to "dir/"
            path = path / "index.html"
        if not path.is_file() or not path.name.endswith(_COMPRESSIBLE):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A browser that closes a connection mid-response is not an error of the site."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class SiteServer:
    """Serves a folder on 127.0.0.1 with a free port, in a background thread."""

    def __init__(self, site_dir: Path, gzip_enabled: bool = False, port: int = 0):
        handler = type("Handler", (_Handler,), {"gzip_enabled": gzip_enabled})
        self.httpd = _QuietServer(("127.0.0.1", port), functools.partial(handler, directory=str(site_dir)))
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> SiteServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def url(self, page: Page | str) -> str:
        return self.base + (page.path if isinstance(page, Page) else page)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def wait_until_settled(tab) -> None:
    """Wait for the page's load event, then for the network to go quiet. Playwright's "networkidle" alone is not
    enough: its timer starts at commit, so on a long page whose scripts come from the cache it can fire while the
    HTML is still being parsed, before material has mounted its components (copy buttons, tabs, the table of
    contents). The load event comes after every DOMContentLoaded handler has run."""
    tab.wait_for_load_state("load")
    tab.wait_for_load_state("networkidle")


# Every font face the page declares, loaded. `document.fonts.ready` alone is not enough: it waits only for the
# loads already started, and a face is requested when layout first meets text in it, so on a busy machine it can
# resolve before the math font was asked for; the formulas are then measured (or photographed) in the fallback
# font and the swap moves them afterwards. Works with JavaScript off too (evaluate runs in Playwright's own world).
_FONTS_LOADED = """async () => {
  document.body.getBoundingClientRect();
  await Promise.all([...document.fonts].map((face) => face.load().catch(() => null)));
  await document.fonts.ready;
  return [...document.fonts].filter((face) => face.status !== "loaded").map((face) => face.family);
}"""


def wait_for_fonts(tab) -> None:
    """Wait until every declared font face has loaded; a face that cannot load fails with its name."""
    failed = tab.evaluate(_FONTS_LOADED)
    assert not failed, f"{tab.url}: font face(s) did not load: {failed} (overrides/assets/stylesheets/site.css)"


# Code blocks far from the viewport skip layout (content-visibility: auto in site.css) until scrolled near, and then
# take their real height: a test that scrolls and measures (axe's contrast, the formulas' photographs) saw the page
# move between a measurement and its use. Laid out in full first, every page measures the same each run.
LAY_OUT_EVERYTHING = ".md-typeset div.highlight { content-visibility: visible !important; }"
